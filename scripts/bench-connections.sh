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
ALERTD_BIN=${ALERTD_BIN:-.build/release/alertd}
. scripts/bench/build-check.sh
describe_build "$ALERTD_BIN"
data=$(mktemp -d)  # the generated secrets; removed at exit

# wrk connects from one address: the per-client connection limit (default 128) is lifted here.
# Request lines are off (--log-level warning), as in every figure taken before alertd had them.
"$ALERTD_BIN" serve --host 127.0.0.1 --port "$PORT" --store memory --data-dir "$data" --per-client-connection-limit 0 --log-level warning >/tmp/alertd-bench.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; rm -rf "$data"' EXIT
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

# Slow clients: STALLED connections (from ten loopback addresses, under the per-client limit)
# each send half a request head and stop, while wrk renders over 16 connections. The render
# latency should not move (p99 < 100 ms), and the server closes the stalled ones at its
# connection timeout. Everything bounded: the holder exits after HOLD seconds at most.
STALLED=${STALLED:-600}
STALL_TIMEOUT=${STALL_TIMEOUT:-10}
kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true
"$ALERTD_BIN" serve --host 127.0.0.1 --port "$PORT" --store memory --data-dir "$data" --connection-timeout "$STALL_TIMEOUT" \
  --log-level warning >/tmp/alertd-bench.log 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/livez" >/dev/null && break; sleep 0.1; done
echo
echo "== $STALLED stalled clients (half a request head each), connection timeout ${STALL_TIMEOUT}s, render with wrk -c16"
python3 - "$PORT" "$STALLED" "$STALL_TIMEOUT" <<'PY' &
import socket, sys, time
port, count, timeout = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
held = []
for i in range(count):
    s = socket.socket()
    s.bind((f"127.0.0.{2 + i % 10}", 0))
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /v1/catalogs/app/alerts/questionExit HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-")
    s.setblocking(False)
    held.append(s)
start = time.monotonic()
print(f"stalled: {len(held)} connections held", flush=True)
closed_at = {}
while len(closed_at) < len(held) and time.monotonic() - start < timeout + 20:
    for n, s in enumerate(held):
        if n in closed_at: continue
        try:
            if s.recv(1) == b"": closed_at[n] = time.monotonic() - start
        except BlockingIOError: pass
        except OSError: closed_at[n] = time.monotonic() - start
    time.sleep(0.2)
times = sorted(closed_at.values())
print(f"stalled: {len(times)}/{len(held)} closed by the server"
      + (f", between {times[0]:.1f}s and {times[-1]:.1f}s after the last was opened" if times else ""), flush=True)
PY
holder=$!
sleep 1
out=$(wrk -t1 -c16 -d"$DURATION" --latency "$URL" 2>&1)
printf 'render while held: %s requests/s, p50 %s, p99 %s, non-2xx %s\n' \
  "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" "$(awk '$1 == "50%" {print $2}' <<<"$out")" \
  "$(awk '$1 == "99%" {print $2}' <<<"$out")" "$(awk '/Non-2xx/ {print $NF}' <<<"$out" | grep . || echo 0)"
wait "$holder"
