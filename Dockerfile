# syntax=docker/dockerfile:1
# alertd in a container. No Docker engine runs where alertd is developed: `make image-check`
# (scripts/image-check.sh) proves the runtime stage instead, in a debootstrapped bookworm root
# with chroot, running the same docker/runtime-setup.sh, paths, user and environment as below.
# Keep the two in step: the check reads this file's ENV line and refuses to run if the lines it
# relies on change.

# Build: the Swift toolchain with the -dev packages of the C libraries alertd links; a release
# binary with Swift's standard library and Foundation linked in (--static-swift-stdlib), so the
# runtime stage needs only the C libraries in docker/runtime-packages.txt.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends pkg-config libmicrohttpd-dev libsqlite3-dev libmimalloc-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Tests/ too: Package.swift names a support target there, and SwiftPM wants every target's folder.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
# Every resource bundle goes beside the binary, where Bundle.module looks for it:
# alertd_AlertServer.resources (openapi.yaml, the console), alertd_AlertCatalogs.resources (the String
# Catalogs), and those of the dependencies.
RUN swift build -c release --static-swift-stdlib --product alertd \
    && mkdir -p /out \
    && cp .build/release/alertd /out/ \
    && cp -R .build/release/*.resources /out/

# Run: a slim Debian with the runtime packages (docker/runtime-packages.txt, the one list),
# as the user alertd (uid 10001, no privileges), in its home.
FROM debian:bookworm-slim
COPY docker/runtime-packages.txt docker/runtime-setup.sh /tmp/alertd-setup/
RUN sh /tmp/alertd-setup/runtime-setup.sh && rm -rf /tmp/alertd-setup
COPY --from=build /out/ /opt/alertd/
ENV PATH=/opt/alertd:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin ALERTD_HOST=0.0.0.0 ALERTD_PORT=8080 ALERTD_STORE=sqlite:/var/lib/alertd/alertd.sqlite
USER alertd
WORKDIR /var/lib/alertd
EXPOSE 8080
# `alertd healthcheck` asks /readyz on ALERTD_HOST:ALERTD_PORT (0.0.0.0 is asked on 127.0.0.1)
# and waits 3 s at most: exit 0 when ready, else 1 with the reason.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["alertd","healthcheck"]
ENTRYPOINT ["alertd"]
CMD ["serve"]
