# Sourced by the benchmarks: says which build of alertd they measure, and warns when a source
# file changed after that build. A build an experiment left in .build/release measures the
# experiment, not the tree: `make bench-…` builds first, a script run by hand does not (see
# docs/benchmarks.md, "How to run them").

describe_build() {  # binary
  local changed
  # Every file of the package counts: the resources (openapi.yaml, the string catalogs) are
  # built into the binary too.
  changed=$(find Sources Package.swift -newer "$1" -type f 2>/dev/null | head -3 | tr '\n' ' ' || true)
  echo "alertd build: $1, built $(date -u -r "$1" '+%Y-%m-%d %H:%M UTC'), sha256 $(sha256sum "$1" | cut -c1-12);" \
    "tree $(git describe --always --dirty 2>/dev/null || echo unknown)"
  if [ -n "$changed" ]; then
    echo "WARNING: changed since this build: ${changed}(make release, or make bench-…, builds the tree)"
  fi
}
