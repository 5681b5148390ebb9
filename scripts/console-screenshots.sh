#!/usr/bin/env bash
# The docs' pictures of the console (`make screenshots`): a debug alertd serving the built-in
# catalogs from memory on a free port of 127.0.0.1, photographed by scripts/console_screenshots.py
# into docs/images/console (OUT), then stopped. PYTHON is the venv's, with Selenium.
set -euo pipefail
cd "$(dirname "$0")/.."
ALERTD_BIN=${ALERTD_BIN:-.build/debug/alertd}
PYTHON=${PYTHON:-.build/venv/bin/python}
OUT=${OUT:-docs/images/console}

log=$(mktemp)
"$ALERTD_BIN" serve --host 127.0.0.1 --port 0 --store memory --admin-token "screenshots-$RANDOM$RANDOM" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do
  url=$(sed -n 's/^alertd listening on \(http:[^ ]*\)$/\1/p' "$log")
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "alertd did not say where it listens:"; cat "$log"; exit 1; }
mkdir -p "$OUT"
"$PYTHON" scripts/console_screenshots.py --url "$url" --out "$OUT" --locales en,ar
