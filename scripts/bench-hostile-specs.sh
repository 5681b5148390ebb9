#!/usr/bin/env bash
# Hostile specs against a release build of alertd: four clients post the largest valid spec
# (just under SpecLimits.encodedSpec, 200 toast elements) to the anonymous POST /v1/specs/validate
# at once, while one client renders. Prints the server's RSS rise and the render's latency beside
# a quiet baseline, then how an oversized draft is answered. Run by hand (`make bench-hostile-specs`);
# it asserts nothing. Everything listens on 127.0.0.1 and every run is bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18183}
DURATION=${DURATION:-10s}
ALERTD_BIN=${ALERTD_BIN:-.build/release/alertd}
RENDER="http://127.0.0.1:$PORT/v1/catalogs/app/alerts/questionExit"
VALIDATE="http://127.0.0.1:$PORT/v1/specs/validate"
. scripts/bench/build-check.sh
describe_build "$ALERTD_BIN"
work=$(mktemp -d)  # the generated secrets and the specs; removed at exit

# The largest valid draft: a column of 199 text leaves whose text pads it to 65,536 bytes, and
# a draft of 30,000 buttons (about 780 KiB, under the 1 MiB body limit).
python3 - "$work" <<'PY'
import json, sys
folder = sys.argv[1]
def toast(length):
    items = [{"type": "text", "text": "x" * length} for _ in range(199)]
    return json.dumps({"kind": "toast", "content": {"type": "stacked", "items": items}}, separators=(",", ":"))
length = 1
while len(toast(length + 1)) <= 65536: length += 1
spec = toast(length)
spec += " " * (65536 - len(spec))
open(f"{folder}/max.json", "w").write(spec)
buttons = [{"id": f"b{i}", "label": f"B{i}"} for i in range(30000)]
open(f"{folder}/hostile.json", "w").write(json.dumps({"kind": "alert", "title": "t", "actions": buttons}, separators=(",", ":")))
PY
cat >"$work/validate.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = io.open("$work/max.json", "rb"); wrk.body = file:read("*a"); file:close()
LUA

"$ALERTD_BIN" serve --host 127.0.0.1 --port "$PORT" --store memory --data-dir "$work" --log-level warning >/tmp/alertd-bench.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/livez" >/dev/null && break; sleep 0.1; done

rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }  # KiB
latency() {  # wrk output → "requests/s p50 p99"
  printf '%s %s %s' "$(awk '/Requests\/sec/ {print $2}' <<<"$1")" "$(awk '$1 == "50%" {print $2}' <<<"$1")" "$(awk '$1 == "99%" {print $2}' <<<"$1")"
}

echo "largest valid spec: $(wc -c <"$work/max.json") bytes, answered $(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data-binary @"$work/max.json" "$VALIDATE")"
wrk -t1 -c4 -d2s -s "$work/validate.lua" "$VALIDATE" >/dev/null 2>&1  # warm the allocator up once
quiet=$(wrk -t1 -c1 -d"$DURATION" --latency "$RENDER" 2>&1)
read -r quiet_rps quiet_p50 quiet_p99 <<<"$(latency "$quiet")"
echo "render alone (1 connection): $quiet_rps requests/s, p50 $quiet_p50, p99 $quiet_p99"

before=$(rss)
peak=$before
( while sleep 0.05; do r=$(rss 2>/dev/null) || break; echo "$r"; done ) >"$work/rss.log" &
sampler=$!
wrk -t1 -c4 -d"$DURATION" -s "$work/validate.lua" "$VALIDATE" >"$work/validate.out" 2>&1 &
load=$!
sleep 0.5
loaded=$(wrk -t1 -c1 -d"$DURATION" --latency "$RENDER" 2>&1)
wait "$load"
kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null || true
peak=$(sort -n "$work/rss.log" | tail -1)
read -r loaded_rps loaded_p50 loaded_p99 <<<"$(latency "$loaded")"
echo "4 concurrent validates of the largest spec: $(awk '/Requests\/sec/ {print $2}' "$work/validate.out") validates/s," \
  "non-2xx $(awk '/Non-2xx/ {print $NF}' "$work/validate.out" | grep . || echo 0)"
echo "render beside them (1 connection): $loaded_rps requests/s, p50 $loaded_p50, p99 $loaded_p99"
echo "server RSS: $((before / 1024)) MiB before, $((peak / 1024)) MiB at the peak (+$(((peak - before) / 1024)) MiB), $(($(rss) / 1024)) MiB after"

# The report's draft: refused by its size before it is parsed.
hostile=$(curl -s -w ' %{http_code} in %{time_total} s' -H 'Content-Type: application/json' --data-binary @"$work/hostile.json" "$VALIDATE" |
  python3 -c 'import json, sys; body, _, status = sys.stdin.read().rpartition("}"); print(json.loads(body + "}")["type"].split(":")[-1] + status)')
echo "30,000 buttons ($(wc -c <"$work/hostile.json") bytes): $hostile; server RSS after $(($(rss) / 1024)) MiB"
