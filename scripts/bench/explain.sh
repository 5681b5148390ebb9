#!/usr/bin/env bash
# GET /v1/sessions/{session}/explain on a session of 100 live items: p50 and p99 latency of
# sequential requests on one keep-alive connection. Run by hand; it prints figures and asserts
# nothing. The goal is a p99 of at most 5 ms on a release build.
# ALERTD_BIN (.build/release/alertd) is the build measured; REQUESTS (2000) how many are timed.
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT=${PORT:-18283}
ALERTD_BIN=${ALERTD_BIN:-.build/release/alertd}
REQUESTS=${REQUESTS:-2000}
ADMIN=bench-admin-token
. scripts/bench/build-check.sh
describe_build "$ALERTD_BIN"
work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

"$ALERTD_BIN" serve --host 127.0.0.1 --port "$PORT" --store "sqlite:$work/alertd.sqlite" --durability process \
  --data-dir "$work" --admin-token "$ADMIN" --log-level warning >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/livez" >/dev/null && break; sleep 0.1; done

python3 - "$PORT" "$ADMIN" "$REQUESTS" <<'PY'
import http.client, json, sys, time
port, admin, requests = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
conn = http.client.HTTPConnection("127.0.0.1", port)
def call(method, path, token, body=None):
    headers = {"Authorization": f"Bearer {token}"}
    if body is not None: headers["Content-Type"] = "application/json"
    conn.request(method, "/v1/sessions/bench" + path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse(); data = response.read()
    return response.status, data
status, data = call("POST", "/token", admin, {})
token = json.loads(data)["token"]
# 100 live items: modals of three priorities, some with a TTL, and toasts; one modal and one
# toast delivered (presenting), so every code but held is in the answer.
for index in range(98):
    body = {"alert": "app/newMessages", "params": {"count": index, "sender": f"s{index}"}, "priority": 100 * (index % 3)}
    if index % 4 == 0: body["ttl"] = 3600
    assert call("POST", "/queue", admin, body)[0] == 201
for name in ("Ana", "Bo"):
    assert call("POST", "/queue", admin, {"alert": "app/welcomeToast", "params": {"name": name}})[0] == 201
assert call("GET", "/next", token)[0] == 200 and call("GET", "/next", token)[0] == 200
status, data = call("GET", "/explain", admin)
answer = json.loads(data)
assert status == 200 and len(answer["items"]) == 100, (status, len(answer.get("items", [])))
for _ in range(100): call("GET", "/explain", admin)   # warm up
times = []
for _ in range(requests):
    start = time.perf_counter(); status, _ = call("GET", "/explain", admin); times.append(time.perf_counter() - start)
    assert status == 200
times.sort()
pick = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000
print(f"explain, 100 live items, {requests} requests, {len(data)} bytes: p50 {pick(0.50):.2f} ms, p99 {pick(0.99):.2f} ms")
PY
