#!/usr/bin/env bash
# Holds many concurrent keep-alive connections against a release build of alertd and prints
# wrk's figures for each count: requests/s, latency, errors. Run by hand (`make bench-connections`);
# it asserts nothing. Everything listens on 127.0.0.1 and every run is bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18181}
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-"64 128 256 512 1000"}
URL="http://127.0.0.1:$PORT/v1/catalogs/app/alerts/questionExit"

.build/release/alertd serve --host 127.0.0.1 --port "$PORT" --store memory >/tmp/alertd-bench.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/livez" >/dev/null && break; sleep 0.1; done

printf '%-12s %12s %10s %10s %10s %s\n' connections requests/s p50 p99 non-2xx socket-errors
for c in $CONNECTIONS; do
    out=$(wrk -t2 -c"$c" -d"$DURATION" --latency "$URL" 2>&1)
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
    errors=$(grep -o 'Socket errors:.*' <<<"$out" || echo none)
    printf '%-12s %12s %10s %10s %10s %s\n' "$c" "$rps" "$p50" "$p99" "${non2xx:-0}" "$errors"
done
echo "server RSS after the runs: $(awk '/VmHWM/ {print $2, $3}' /proc/$server/status) (peak)"
