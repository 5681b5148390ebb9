#!/usr/bin/env bash
# The render benchmark (`make bench`, run by hand; it prints figures and asserts nothing):
# alertd (release build) against nginx serving the same bytes as a static file, both on
# 127.0.0.1 with two workers, measured with wrk in interleaved rounds, in turn A B then B A, so
# drift in the machine's speed hits both alike. Then cache misses beside nginx hits and 304s
# beside alertd hits, and the queue figures (scripts/bench-queue.sh: enqueue, next -> ack
# cycles, memory per suspended long-poll). Ratios are the median of each round's own ratio.
#
# Per run: requests/s, p50/p99 latency, errors, and the server's CPU per request from
# /proc/PID/stat (nginx: master and workers summed). Peak RSS from VmHWM at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

ALERTD_PORT=${ALERTD_PORT:-18383}
NGINX_PORT=${NGINX_PORT:-18384}
DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-4}  # even: as many rounds in each order
CONNECTIONS=${CONNECTIONS:-"64 128 256"}
QUEUE=${QUEUE:-1}  # 0 skips the queue figures
ALERTD_BIN=${ALERTD_BIN:-.build/release/alertd}
. scripts/bench/build-check.sh
describe_build "$ALERTD_BIN"
RENDER_PATH="/v1/catalogs/app/alerts/questionExit?locale=zh-Hans"

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -r)," \
  "load average before: $(cut -d' ' -f1-3 /proc/loadavg) (figures are only comparable on an idle machine)"
echo "versions: $("$ALERTD_BIN" --version 2>/dev/null || echo '?') alertd; $(nginx -v 2>&1 | sed 's/.*: //'); $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2)"

work=$(mktemp -d)
chmod 755 "$work"  # nginx's workers (user nobody) read the file
alertd_pid=""
nginx_pid=""
cleanup() {
  [ -n "$alertd_pid" ] && kill "$alertd_pid" 2>/dev/null && wait "$alertd_pid" 2>/dev/null
  [ -n "$nginx_pid" ] && kill -QUIT "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)"

# alertd: the built-in catalogs, the in-memory store, one worker thread per core; wrk connects
# from one address, so the per-client connection limit is lifted. nginx below runs with
# `access_log off`, so alertd runs at --log-level warning, which skips its request lines (info):
# neither server writes a line per request, and the comparison stays fair. (Request metrics stay
# on: they are always on in alertd.)
"$ALERTD_BIN" serve --host 127.0.0.1 --port "$ALERTD_PORT" --store memory --data-dir "$work" \
  --per-client-connection-limit 0 --log-level warning ${ALERTD_ARGS:-} >"$work/alertd.log" 2>&1 &
alertd_pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$ALERTD_PORT/livez" >/dev/null && break; sleep 0.1; done

# nginx: the bytes alertd renders, as a file; two workers (one per core), no access log,
# sendfile, keep-alive without a request limit (wrk's connections stay open, as with alertd).
mkdir -p "$work/www" "$work/nginx-temp"
curl -sf "http://127.0.0.1:$ALERTD_PORT$RENDER_PATH" -o "$work/www/questionExit.json"
chmod 644 "$work/www/questionExit.json"
etag=$(curl -sfI "http://127.0.0.1:$ALERTD_PORT$RENDER_PATH" | awk -F': ' 'tolower($1) == "etag" {print $2}' | tr -d '\r')
cat >"$work/nginx.conf" <<CONF
worker_processes $(nproc);
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_requests 100000000;
    keepalive_timeout 65;
    open_file_cache max=16 inactive=60s;
    client_body_temp_path $work/nginx-temp/body;
    proxy_temp_path $work/nginx-temp/proxy;
    fastcgi_temp_path $work/nginx-temp/fastcgi;
    uwsgi_temp_path $work/nginx-temp/uwsgi;
    scgi_temp_path $work/nginx-temp/scgi;
    types { application/json json; }
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $work/www;
        add_header Cache-Control "public, max-age=300";
    }
}
CONF
nginx -c "$work/nginx.conf" -e "$work/nginx-error.log" &
nginx_pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$NGINX_PORT/questionExit.json" >/dev/null && break; sleep 0.1; done
if ! cmp -s <(curl -sf "http://127.0.0.1:$ALERTD_PORT$RENDER_PATH") <(curl -sf "http://127.0.0.1:$NGINX_PORT/questionExit.json"); then
  echo "alertd and nginx do not serve the same bytes" >&2
  exit 1
fi
echo "body: $(wc -c <"$work/www/questionExit.json") bytes (app/questionExit, zh-Hans); ETag $etag"

# CPU ticks (1/100 s) of a process and its children (nginx's workers); VmHWM in KiB likewise.
pids_of() { echo "$1 $(pgrep -P "$1" | tr '\n' ' ')"; }
cpu_ticks() { local t=0; for p in $(pids_of "$1"); do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done; echo "$t"; }
peak_kib() { local k=0; for p in $(pids_of "$1"); do k=$((k + $(awk '/VmHWM/ {print $2}' "/proc/$p/status"))); done; echo "$k"; }

# One wrk run against a server: prints "rps p50 p99 errors cpu_us_per_request".
measure() {  # pid connections url [wrk args…]
  local pid=$1 c=$2 url=$3
  shift 3
  local before after out
  before=$(cpu_ticks "$pid")
  out=$(wrk -t2 -c"$c" -d"$DURATION" --latency "$@" "$url" 2>&1)
  after=$(cpu_ticks "$pid")
  python3 - "$out" "$((after - before))" "${DURATION%s}" <<'PY'
import re, sys
out, ticks, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
def ms(s):
    value, unit = re.match(r"([0-9.]+)(us|ms|s)", s).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
rps = float(re.search(r"Requests/sec:\s+([0-9.]+)", out).group(1))
p50 = ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))
p99 = ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))
errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
errors += int((re.search(r"Non-2xx or 3xx responses: (\d+)", out) or [0, 0])[1])
print(f"{rps:.0f} {p50:.3f} {p99:.3f} {errors} {ticks * 1e4 / max(rps * seconds, 1):.1f}")
PY
}

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

declare -A results
row() { printf '%-34s %11s %9s %9s %7s %12s\n' "$@"; }
row "run" "requests/s" "p50 ms" "p99 ms" errors "CPU us/req"

# Warm both: the rendering is cached, nginx's file is open.
wrk -t2 -c16 -d1s "http://127.0.0.1:$ALERTD_PORT$RENDER_PATH" >/dev/null
wrk -t2 -c16 -d1s "http://127.0.0.1:$NGINX_PORT/questionExit.json" >/dev/null

# Odd rounds run the steps in one order, even rounds in the reverse (A B, then B A): a machine
# that speeds up or slows down during a round then weighs on both sides of a ratio alike.
in_turn() { if [ $(($1 % 2)) = 1 ]; then echo "${@:2}"; else echo "${@:2}" | tr ' ' '\n' | tac | tr '\n' ' '; fi; }

for c in $CONNECTIONS; do
  for round in $(seq "$ROUNDS"); do
    for server in $(in_turn "$round" alertd nginx); do
      if [ "$server" = alertd ]; then
        r=$(measure "$alertd_pid" "$c" "http://127.0.0.1:$ALERTD_PORT$RENDER_PATH")
      else
        r=$(measure "$nginx_pid" "$c" "http://127.0.0.1:$NGINX_PORT/questionExit.json")
      fi
      results["$server $c $round"]=$r
      row "$server hit, $c conns, round $round" $r
    done
  done
done

# Cache misses (distinct parameters every request) and the 304 path, each round beside the hit
# it is compared with, so that the machine's drift between rounds hits both sides of a ratio
# alike: nginx hit, alertd miss, alertd hit, alertd 304, and the reverse in even rounds.
step() {  # name round
  local r label
  case $1 in
    nginx-beside-miss) r=$(measure "$nginx_pid" 64 "http://127.0.0.1:$NGINX_PORT/questionExit.json") label="nginx hit" ;;
    miss) r=$(measure "$alertd_pid" 64 "http://127.0.0.1:$ALERTD_PORT" -s scripts/bench/render-miss.lua) label="alertd miss" ;;
    alertd-beside-304) r=$(measure "$alertd_pid" 64 "http://127.0.0.1:$ALERTD_PORT$RENDER_PATH") label="alertd hit" ;;
    304) r=$(measure "$alertd_pid" 64 "http://127.0.0.1:$ALERTD_PORT$RENDER_PATH" -H "If-None-Match: $etag") label="alertd 304" ;;
  esac
  results["$1 64 $2"]=$r
  row "$label, 64 conns, round $2" $r
}
for round in $(seq "$ROUNDS"); do
  for name in $(in_turn "$round" nginx-beside-miss miss alertd-beside-304 304); do step "$name" "$round"; done
done

alertd_peak=$(peak_kib "$alertd_pid")
nginx_peak=$(peak_kib "$nginx_pid")

field() { # name connections column(1-5) -> median over rounds
  for round in $(seq "$ROUNDS"); do echo "${results["$1 $2 $round"]}" | cut -d' ' -f"$3"; done | median
}
echo
echo "== medians over $ROUNDS rounds of $DURATION"
row "" "requests/s" "p50 ms" "p99 ms" errors "CPU us/req"
for c in $CONNECTIONS; do
  for server in alertd nginx; do
    row "$server hit, $c conns" "$(field "$server" "$c" 1)" "$(field "$server" "$c" 2)" "$(field "$server" "$c" 3)" \
      "$(field "$server" "$c" 4)" "$(field "$server" "$c" 5)"
  done
done
for kind in miss 304; do
  row "alertd $kind, 64 conns" "$(field "$kind" 64 1)" "$(field "$kind" 64 2)" "$(field "$kind" 64 3)" \
    "$(field "$kind" 64 4)" "$(field "$kind" 64 5)"
done
echo "peak RSS: alertd $((alertd_peak / 1024)) MiB; nginx $((nginx_peak / 1024)) MiB (master and workers)"

# A ratio of two runs measured side by side: the median over rounds of each round's ratio, then
# every round's, so a round the machine slowed down shows as the one it is.
paired() { # name-a name-b connections column(1-5)
  local ratios=""
  for round in $(seq "$ROUNDS"); do
    ratios+="$(python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print(f'{a / b:.2f}' if b else 0)" \
      "$(echo "${results["$1 $3 $round"]}" | cut -d' ' -f"$4")" "$(echo "${results["$2 $3 $round"]}" | cut -d' ' -f"$4")") "
  done
  echo "$(echo "$ratios" | tr ' ' '\n' | grep . | median | xargs printf '%.2f') (rounds: ${ratios% })"
}
echo
echo "== ratios, each the median of the rounds' own ratios (goal in brackets)"
for c in $CONNECTIONS; do
  echo "hit, $c conns: requests/s alertd/nginx $(paired alertd nginx "$c" 1)$([ "$c" = 64 ] && echo ' [>= 1.0]');" \
    "CPU per request alertd/nginx $(paired alertd nginx "$c" 5)$([ "$c" = 64 ] && echo ' [<= 1.0]')"
done
echo "miss, 64 conns: requests/s alertd miss/nginx hit $(paired miss nginx-beside-miss 64 1) [>= 0.3]"
echo "304, 64 conns: requests/s alertd 304/alertd hit $(paired 304 alertd-beside-304 64 1) [>= 1.0]"
echo "peak RSS alertd: $((alertd_peak / 1024)) MiB [<= 64]"

if [ "$QUEUE" = 1 ]; then
  kill "$alertd_pid" 2>/dev/null && wait "$alertd_pid" 2>/dev/null || true
  alertd_pid=""
  kill -QUIT "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null || true
  nginx_pid=""
  echo
  echo "== the queue on SQLite (scripts/bench-queue.sh)"
  ALERTD_BIN="$ALERTD_BIN" scripts/bench-queue.sh
fi
