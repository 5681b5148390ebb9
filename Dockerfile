# syntax=docker/dockerfile:1
# Build: the Swift toolchain with libmicrohttpd's headers; a release binary with Swift's standard
# library linked in, so the runtime stage needs only the C libraries the binary links.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends pkg-config libmicrohttpd-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
RUN swift build -c release --static-swift-stdlib --product alertd \
    && mkdir -p /out \
    && cp .build/release/alertd /out/ \
    && cp -R .build/release/alertd_AlertServer.resources /out/

# Run: a slim Debian with only the runtime packages, as a user without privileges.
FROM debian:bookworm-slim
COPY docker/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(grep -v '^#' /tmp/runtime-packages.txt) \
    && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt \
    && useradd --system --uid 10001 --home-dir /var/lib/alertd --create-home alertd
# The resource bundle must sit beside the binary, where Bundle.module looks for it.
COPY --from=build /out/ /opt/alertd/
USER alertd
WORKDIR /var/lib/alertd
ENV ALERTD_HOST=0.0.0.0 ALERTD_PORT=8080 ALERTD_STORE=sqlite:/var/lib/alertd/alertd.sqlite
EXPOSE 8080
ENTRYPOINT ["/opt/alertd/alertd"]
CMD ["serve"]
