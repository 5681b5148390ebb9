#!/usr/bin/env bash
# `make image-check`: proves the Dockerfile's runtime stage without a Docker engine.
#
#   1. builds the release binary as the Dockerfile does (--static-swift-stdlib), in .build-image;
#   2. makes a Debian bookworm root filesystem with `debootstrap --variant=minbase` (what
#      debian:bookworm-slim is made from) from this machine's own Debian mirror, read from the apt
#      configuration; the bare root is cached in .build-image/image-check, everything after is
#      done afresh on a copy each run;
#   3. runs docker/runtime-setup.sh in it with chroot — the Dockerfile's RUN step: the packages of
#      docker/runtime-packages.txt and the user alertd;
#   4. copies the binary and every resource bundle to /opt/alertd, as the Dockerfile's COPY does;
#   5. checks the binary there: `ldd` finds every library, and the package list is exactly the
#      packages that own the libraries the binary links (none missing, none extra);
#   6. runs `alertd serve` as alertd (chroot --userspec) with the Dockerfile's ENV (but on
#      127.0.0.1 and a free port), its SQLite store in alertd's home; then `alertd healthcheck`
#      inside (must exit 0, and 1 against a closed port), renders from the host with curl (the
#      String Catalogs and openapi.yaml load), uses a token from `alertd token`; stops the server
#      with SIGTERM (must exit 0).
# Everything it mounts is unmounted on exit, failed or not, before anything is deleted.
# Needs root (debootstrap, mount, chroot). Prints its time at the end: here, with the binary
# built, about 110 s cold (debootstrap) and 17 s warm. IMAGE_CHECK_SCRATCH names another release
# build folder than .build-image.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
step() { echo "== [$((SECONDS - started))s] $*"; }
fail() { echo "image-check: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root (debootstrap, mount, chroot)"
for tool in debootstrap chroot curl readelf mount; do
    command -v "$tool" >/dev/null || fail "$tool is missing (make image-check installs it)"
done

SCRATCH=${IMAGE_CHECK_SCRATCH:-.build-image}  # the release build folder, as `make` uses it
CACHE=$SCRATCH/image-check
SUITE=bookworm
PACKAGES_FILE=docker/runtime-packages.txt
SETUP_FILE=docker/runtime-setup.sh
# What the Dockerfile's runtime stage does, which this check reproduces. Checked against the
# Dockerfile first, so the two cannot drift apart silently.
INSTALL_DIR=/opt/alertd
USER_NAME=alertd
HOME_DIR=/var/lib/alertd
expect_in_dockerfile() {
    grep -qF -- "$1" Dockerfile || fail "the Dockerfile no longer has \`$1\`; update scripts/image-check.sh with it"
}
expect_in_dockerfile "FROM debian:$SUITE-slim"
expect_in_dockerfile "swift build -c release --static-swift-stdlib --product alertd"
expect_in_dockerfile "cp -R .build/release/*.resources /out/"
expect_in_dockerfile "COPY $PACKAGES_FILE $SETUP_FILE /tmp/alertd-setup/"
expect_in_dockerfile "RUN sh /tmp/alertd-setup/runtime-setup.sh"
expect_in_dockerfile "COPY --from=build /out/ $INSTALL_DIR/"
expect_in_dockerfile "USER $USER_NAME"
expect_in_dockerfile "WORKDIR $HOME_DIR"
expect_in_dockerfile 'CMD ["alertd","healthcheck"]'
expect_in_dockerfile 'ENTRYPOINT ["alertd"]'
grep -qF -- "--home-dir $HOME_DIR" "$SETUP_FILE" && grep -qE -- "useradd .* $USER_NAME\$" "$SETUP_FILE" \
    || fail "$SETUP_FILE no longer creates $USER_NAME with home $HOME_DIR; update scripts/image-check.sh"
# The runtime ENV line, as NAME=VALUE words (values without blanks).
read -r -a image_env <<<"$(sed -n 's/^ENV //p' Dockerfile | tr '\n' ' ')"
[ "${#image_env[@]}" -gt 0 ] || fail "no ENV line in the Dockerfile"
image_path=$(printf '%s\n' "${image_env[@]}" | sed -n 's/^PATH=//p')
case ":$image_path:" in *":$INSTALL_DIR:"*) ;; *) fail "the Dockerfile's PATH does not hold $INSTALL_DIR" ;; esac
mapfile -t packages < <(grep -v '^[[:space:]]*#' "$PACKAGES_FILE" | tr -s '[:space:]' '\n' | sed '/^$/d' | sort -u)
[ "${#packages[@]}" -gt 0 ] || fail "$PACKAGES_FILE lists no package"

# --- 1. the release binary, as the Dockerfile's build stage makes it
step "building the static release binary (--scratch-path $SCRATCH)"
mkdir -p "$CACHE"
if ! swift build -c release --static-swift-stdlib --product alertd --scratch-path "$SCRATCH" >"$CACHE/build.log" 2>&1; then
    grep -E "error:" "$CACHE/build.log" | sort -u | head -n 20 >&2
    fail "the release build failed (log: $CACHE/build.log)"
fi
tail -n 1 "$CACHE/build.log"
bin_dir=$(swift build -c release --static-swift-stdlib --product alertd --scratch-path "$SCRATCH" --show-bin-path)
[ -x "$bin_dir/alertd" ] || fail "no binary at $bin_dir/alertd"
compgen -G "$bin_dir/*.resources" >/dev/null || fail "no resource bundle in $bin_dir"

# --- 2. the mirror, from this machine's apt configuration (one-line and deb822 formats)
# Prints "URI SUITE" for each enabled `deb` source of Debian's main component.
apt_sources() {
    local file
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$file" ] || continue
        sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$file" | awk '$1 == "deb" { for (i = 4; i <= NF; i++) if ($i == "main") print $2, $3 }'
    done
    for file in /etc/apt/sources.list.d/*.sources; do
        [ -f "$file" ] || continue
        awk '
            function flush() {
                if (types ~ /(^| )deb( |$)/ && components ~ /(^| )main( |$)/ && tolower(enabled) != "no")
                    for (u = 1; u <= nu; u++) for (s = 1; s <= ns; s++) print uri[u], suite[s]
                types = components = enabled = ""; nu = ns = 0; field = ""
            }
            /^[[:space:]]*#/ { next }
            /^[[:space:]]*$/ { flush(); next }
            /^[^[:space:]]/ { field = tolower(substr($0, 1, index($0, ":") - 1)); sub(/^[^:]*:[[:space:]]*/, "") }
            /^[[:space:]]/ { sub(/^[[:space:]]+/, "") }
            field == "types" { types = types " " $0 }
            field == "components" { components = components " " $0 }
            field == "enabled" { enabled = $0 }
            field == "uris" { n = split($0, w, /[[:space:]]+/); for (i = 1; i <= n; i++) if (w[i] != "") uri[++nu] = w[i] }
            field == "suites" { n = split($0, w, /[[:space:]]+/); for (i = 1; i <= n; i++) if (w[i] != "") suite[++ns] = w[i] }
            END { flush() }' "$file"
    done
}
mapfile -t sources < <(apt_sources | awk -v s="$SUITE" '$2 == s || $2 == s "-updates" || $2 == s "-security"' | sort -u)
mirror=$(printf '%s\n' "${sources[@]}" | awk -v s="$SUITE" '$2 == s { print $1; exit }')
[ -n "$mirror" ] || fail "no enabled 'deb … $SUITE main' source in /etc/apt/sources.list or /etc/apt/sources.list.d"
step "mirror: $mirror; sources for the image: $(printf '%s, ' "${sources[@]}" | sed 's/, $//')"

# --- 3. the bare root filesystem: debootstrap once, cached as a tarball (rebuilt after 7 days)
key=$(printf '%s %s minbase' "$mirror" "$SUITE" | sha256sum | cut -c1-12)
base_tar=$CACHE/$SUITE-minbase-$key.tar
if [ -f "$base_tar" ] && [ -n "$(find "$base_tar" -mtime -7)" ]; then
    step "bare $SUITE root from the cache ($base_tar)"
else
    step "debootstrap --variant=minbase $SUITE from $mirror (cached afterwards in $CACHE)"
    fresh=$(mktemp -d "$CACHE/debootstrap.XXXXXX")
    if ! debootstrap --variant=minbase "$SUITE" "$fresh" "$mirror" >"$CACHE/debootstrap.log" 2>&1; then
        tail -n 20 "$CACHE/debootstrap.log" >&2
        rm -rf --one-file-system "$fresh"
        fail "debootstrap failed (log: $CACHE/debootstrap.log)"
    fi
    chmod 0755 "$fresh"
    tar -C "$fresh" --numeric-owner -cf "$base_tar.partial" .
    mv "$base_tar.partial" "$base_tar"
    rm -rf --one-file-system "$fresh"
fi

root=$(mktemp -d "$CACHE/root.XXXXXX")
root=$(cd "$root" && pwd -P)
mounts=()
server=""
cleanup() {
    local status=$? i
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
        kill -KILL "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null || true
    done
    # Delete the copy only when nothing is mounted inside it any more (a bind mount of /dev
    # would take the machine's device nodes with it).
    if grep -qF " $root/" /proc/mounts; then
        echo "image-check: something is still mounted under $root; left in place:" >&2
        grep -F " $root/" /proc/mounts >&2
    else
        rm -rf --one-file-system "$root"
    fi
    if [ "$status" = 0 ]; then
        echo "image-check: passed in $((SECONDS - started)) s"
    else
        echo "image-check: failed after $((SECONDS - started)) s" >&2
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
tar -C "$root" --numeric-owner -xf "$base_tar"
chmod 0755 "$root"  # mktemp makes folders 0700: the image's / is open to its users (_apt, alertd)

# What a container gets from Docker: /proc, a read-only /sys, the basic device nodes, DNS and
# /etc/hosts. Each mount is recorded first, so the trap unmounts it whatever happens next.
mount_in() { # mount_in TARGET MOUNT-ARGUMENTS…
    local target=$1
    shift
    mounts+=("$target")
    mount "$@" "$target"
}
mount_in "$root/proc" -t proc proc
mount_in "$root/sys" -t sysfs -o ro,nosuid,nodev,noexec sysfs
for node in null zero full random urandom tty; do
    if [ ! -c "$root/dev/$node" ]; then
        rm -f "$root/dev/$node"
        : >"$root/dev/$node"
        mount_in "$root/dev/$node" --bind "/dev/$node"
    fi
done
mkdir -p "$root/dev/shm" "$root/dev/pts"
# A pseudo-terminal instance of the root's own (apt and dpkg log through one), not the machine's.
mounts+=("$root/dev/pts")
mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$root/dev/pts" 2>/dev/null || unset 'mounts[-1]'
cp /etc/resolv.conf "$root/etc/resolv.conf"
printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
# The image's apt sources: this machine's Debian sources for the suite, its updates and security.
{
    for entry in "${sources[@]}"; do
        read -r uri suite <<<"$entry"
        printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n' "$uri" "$suite"
    done
} >"$root/etc/apt/sources.list.d/debian.sources"
rm -f "$root/etc/apt/sources.list"

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

# --- 4. the Dockerfile's RUN step: runtime packages and the user
step "runtime set-up ($SETUP_FILE): ${packages[*]}"
mkdir -p "$root/tmp/alertd-setup"
cp "$PACKAGES_FILE" "$SETUP_FILE" "$root/tmp/alertd-setup/"
if ! in_root sh /tmp/alertd-setup/runtime-setup.sh >"$CACHE/setup.log" 2>&1; then
    tail -n 20 "$CACHE/setup.log" >&2
    fail "the runtime set-up failed (log: $CACHE/setup.log)"
fi
rm -rf "$root/tmp/alertd-setup"

# --- 5. the Dockerfile's COPY: the binary and every resource bundle, owned by root
step "copying alertd and $(cd "$bin_dir" && echo *.resources) to $INSTALL_DIR"
mkdir -p "$root$INSTALL_DIR"
cp "$bin_dir/alertd" "$root$INSTALL_DIR/"
cp -R "$bin_dir"/*.resources "$root$INSTALL_DIR/"
chown -R 0:0 "$root$INSTALL_DIR"

step "ldd $INSTALL_DIR/alertd inside the root"
ldd_output=$(in_root ldd "$INSTALL_DIR/alertd" 2>&1) || fail "ldd failed: $ldd_output"
echo "$ldd_output" | sed 's/^/    /'
if grep -q "not found" <<<"$ldd_output"; then
    fail "libraries the binary links are missing from the image: $(grep 'not found' <<<"$ldd_output" | awk '{print $1}' | tr '\n' ' ')— add their packages to $PACKAGES_FILE"
fi
# The packages that own the libraries the binary itself links (its NEEDED entries).
mapfile -t needed < <(readelf -d "$bin_dir/alertd" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
owners=()
for library in "${needed[@]}"; do
    # "libc.so.6 => /lib/…/libc.so.6 (…)", or for the loader "/lib64/ld-linux-x86-64.so.2 (…)"
    path=$(awk -v l="$library" '
        $1 == l && $2 == "=>" { print $3; exit }
        substr($1, length($1) - length(l)) == "/" l { print $1; exit }' <<<"$ldd_output")
    [ -n "$path" ] || fail "ldd does not show where $library is"
    owner=""
    for candidate in "$path" "$(in_root readlink -f "$path")" "${path#/usr}" "/usr${path#/usr}"; do
        owner=$(in_root dpkg-query -S "$candidate" 2>/dev/null | head -n 1 | cut -d: -f1) && [ -n "$owner" ] && break
    done
    [ -n "$owner" ] || fail "no package owns $path ($library)"
    echo "    $library -> $owner"
    owners+=("$owner")
done
mapfile -t owners < <(printf '%s\n' "${owners[@]}" | sort -u)
missing=$(comm -23 <(printf '%s\n' "${owners[@]}") <(printf '%s\n' "${packages[@]}"))
extra=$(comm -13 <(printf '%s\n' "${owners[@]}") <(printf '%s\n' "${packages[@]}"))
[ -z "$missing" ] || fail "the binary links libraries of packages not in $PACKAGES_FILE: $(echo $missing) (present in minbase by chance, not by the list)"
[ -z "$extra" ] || fail "$PACKAGES_FILE lists packages the binary links nothing from: $(echo $extra)"
step "the package list is exactly what the binary links: ${packages[*]}"

# --- 6. run it as the container would: as alertd, in its home, with the image's environment
uid=$(awk -F: -v u="$USER_NAME" '$1 == u { print $3 }' "$root/etc/passwd")
gid=$(awk -F: -v u="$USER_NAME" '$1 == u { print $4 }' "$root/etc/passwd")
[ -n "$uid" ] && [ "$uid" != 0 ] || fail "no non-root user $USER_NAME in the image"
# user_command NAME=VALUE… -- COMMAND…: sets $user_cmd to run COMMAND as alertd in its home, with
# the image's ENV plus NAME=VALUE (an array, not a function, so that `"${user_cmd[@]}" &` gives
# the server's own pid: chroot, env and sh each exec the next).
user_command() {
    local extra_env=()
    while [ "$1" != "--" ]; do extra_env+=("$1"); shift; done
    shift
    user_cmd=(chroot --userspec="$uid:$gid" --groups="$gid" "$root" /usr/bin/env -i HOME="$HOME_DIR" "${image_env[@]}"
        "${extra_env[@]}" /bin/sh -c 'cd "$HOME" && exec "$@"' sh "$@")
}
as_user() { user_command "$@" && "${user_cmd[@]}"; }
log=$CACHE/serve.log
step "alertd serve as $USER_NAME (uid $uid) in the root, on 127.0.0.1 and a free port"
user_command ALERTD_HOST=127.0.0.1 ALERTD_PORT=0 -- alertd serve
"${user_cmd[@]}" >"$log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 200); do
    port=$(sed -n 's|^alertd listening on http://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$log")
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$log" >&2; fail "alertd serve exited at start"; }
    sleep 0.1
done
[ -n "$port" ] || { cat "$log" >&2; fail "alertd serve did not say where it listens within 20 s"; }
[ "$(readlink "/proc/$server/exe")" = "$root$INSTALL_DIR/alertd" ] || fail "pid $server is not alertd: $(readlink "/proc/$server/exe")"
[ "$(stat -c %u "/proc/$server")" = "$uid" ] || fail "alertd does not run as $USER_NAME"
sed 's/^/    /' "$log"
grep -q "store opened store=sqlite:/var/lib/alertd/alertd.sqlite" "$log" || fail "not serving the image's SQLite store in $HOME_DIR"
[ "$(stat -c %u "$root$HOME_DIR/alertd.sqlite")" = "$uid" ] || fail "the SQLite store is not $USER_NAME's"

step "alertd healthcheck inside the root (the image's HEALTHCHECK, ALERTD_PORT=$port)"
as_user ALERTD_PORT="$port" -- alertd healthcheck || fail "alertd healthcheck did not pass against a ready server"
closed=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if as_user ALERTD_PORT="$closed" -- alertd healthcheck 2>"$CACHE/healthcheck.err"; then
    fail "alertd healthcheck passed against a closed port"
fi
echo "    against closed port $closed: exit 1, $(cat "$CACHE/healthcheck.err")"

step "rendering from the host with curl (catalogs, String Catalogs, openapi.yaml)"
base=http://127.0.0.1:$port
spec=$(curl -fsS --max-time 5 "$base/v1/catalogs/app/alerts/newMessages?count=3&sender=Ana&locale=fr")
echo "    ${spec:0:160}…"
grep -q '"locale":"fr"' <<<"$spec" || fail "the spec is not in French: $spec"
grep -q 'Ana' <<<"$spec" || fail "the spec lacks its parameter: $spec"
english=$(curl -fsS --max-time 5 "$base/v1/catalogs/app/alerts/newMessages?count=3&sender=Ana&locale=en")
[ "$(sed -n 's/.*"title":"\([^"]*\)".*/\1/p' <<<"$spec")" != "$(sed -n 's/.*"title":"\([^"]*\)".*/\1/p' <<<"$english")" ] \
    || fail "French and English titles are the same: the String Catalogs did not load"
openapi=$(curl -fsS --max-time 5 "$base/openapi.yaml") || fail "openapi.yaml (a resource) is not served"
[[ $openapi == openapi:* ]] || fail "openapi.yaml does not start as it should: ${openapi:0:80}"
curl -fsS --max-time 5 "$base/readyz" | grep -q '"ready"' || fail "/readyz is not ready"

step "alertd token inside the root opens its session"
token=$(as_user -- alertd token image-check --ttl 120) || fail "alertd token failed"
[ "$(curl -sS --max-time 5 -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$base/v1/sessions/image-check/queue")" = 200 ] \
    || fail "the server refused the token alertd token printed"

step "stopping alertd (SIGTERM to pid $server)"
kill -TERM "$server"
status=0
for _ in $(seq 1 150); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
kill -0 "$server" 2>/dev/null && fail "alertd still runs 15 s after SIGTERM"
wait "$server" || status=$?
server=""
[ "$status" = 0 ] || { tail -n 5 "$log" >&2; fail "alertd exited with status $status after SIGTERM"; }
tail -n 2 "$log" | sed 's/^/    /'
