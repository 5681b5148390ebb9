#!/usr/bin/env bash
# How soon a backend waiting on the event feed (`GET /v1/events?after=…&wait=10`, the latest
# cursor) learns of an enqueue: from the enqueue's response, and from its request's first byte,
# to the reader's answer; ROUNDS rounds (500), p50/p90/p99/max. Beside it this machine's floor:
# a request that does no work (`GET /livez`) after the same idle gap. Run by hand on a release
# build; it prints figures and asserts nothing. The goal: p99 at most 5 ms after the commit.
# ALERTD_BIN (.build/release/alertd) is the build measured; one server on 127.0.0.1, SQLite.
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT=${PORT:-18284}
ALERTD_BIN=${ALERTD_BIN:-.build/release/alertd}
ROUNDS=${ROUNDS:-500}
ADMIN=bench-admin-token
echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg) (figures are only comparable on an idle machine)"
. scripts/bench/build-check.sh
describe_build "$ALERTD_BIN"
work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

"$ALERTD_BIN" serve --host 127.0.0.1 --port "$PORT" --store "sqlite:$work/alertd.sqlite" \
  --data-dir "$work" --admin-token "$ADMIN" --log-level warning >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/livez" >/dev/null && break; sleep 0.1; done

timeout 300 python3 - "$PORT" "$ADMIN" "$ROUNDS" <<'PY'
import json, select, socket, sys, time
port, admin, rounds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])

def connect():
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock

class Reader:
    """Reads HTTP responses off one socket, noting when each one's first byte came."""
    def __init__(self, sock):
        self.sock, self.data, self.first = sock, b"", None
    def feed(self):
        chunk = self.sock.recv(65536)
        if self.first is None: self.first = time.perf_counter()
        self.data += chunk
    def complete(self):
        if b"\r\n\r\n" not in self.data: return None
        head, rest = self.data.split(b"\r\n\r\n", 1)
        lines = head.split(b"\r\n")
        length = next((int(l.split(b":")[1]) for l in lines if l.lower().startswith(b"content-length")), 0)
        if len(rest) < length: return None
        self.data = rest[length:]
        first, self.first = self.first, None
        return lines[0], rest[:length], first
    def response(self):
        while (done := self.complete()) is None: self.feed()
        return done

def request(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else b""
    return (f"{method} {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {admin}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data

backend, feed = Reader(connect()), Reader(connect())
# The latest cursor: read the feed to its end (a fresh store: one empty page).
cursor = None
while True:
    feed.sock.sendall(request("GET", "/v1/events?limit=1000" + (f"&after={cursor}" if cursor else "")))
    status, body, _ = feed.response()
    page = json.loads(body)
    cursor = page["next"]
    if not page["events"]: break

after_answer, after_start, floor = [], [], []
for round in range(rounds):
    feed.sock.sendall(request("GET", f"/v1/events?after={cursor}&wait=10"))
    # Let it park: 20 ms in all, the floor's request in the middle, so that it and the enqueue
    # each come after 10 ms of idle.
    time.sleep(0.01)
    backend.sock.sendall(b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
    start = time.perf_counter()
    status, _, _ = backend.response()
    floor.append((time.perf_counter() - start) * 1000)
    time.sleep(0.01)
    # One session per round: no queue fills, nothing to clean up (which would write events).
    start = time.perf_counter()
    backend.sock.sendall(request("POST", f"/v1/sessions/feed-{round}/queue", {"alert": "app/saved"}))
    enqueued = woken = None
    while enqueued is None or woken is None:
        ready, _, _ = select.select([r.sock for r in (backend, feed) if (enqueued if r is backend else woken) is None], [], [], 15)
        if not ready: sys.exit(f"round {round}: no answer within 15 s")
        for r in (backend, feed):
            if r.sock in ready:
                r.feed()
                if (done := r.complete()) is not None:
                    if r is backend: enqueued = done
                    else: woken = done
    assert enqueued[0].startswith(b"HTTP/1.1 201"), enqueued[0]
    assert woken[0].startswith(b"HTTP/1.1 200"), woken[0]
    page = json.loads(woken[1])
    assert len(page["events"]) == 1 and page["events"][0]["session"] == f"feed-{round}", page
    cursor = page["next"]
    after_answer.append((woken[2] - enqueued[2]) * 1000)
    after_start.append((woken[2] - start) * 1000)

def figures(values):
    values = sorted(values)
    p = lambda q: values[min(len(values) - 1, int(q * len(values)))]
    return f"p50 {p(0.5):.2f} ms, p90 {p(0.9):.2f} ms, p99 {p(0.99):.2f} ms, max {values[-1]:.2f} ms"
print(f"event feed reader woken by an enqueue, {rounds} rounds:")
print(f"  from the enqueue's answer:        {figures(after_answer)}")
print(f"  from the enqueue's request sent:  {figures(after_start)}")
print(f"  floor, GET /livez after the same idle gap: {figures(floor)}")
PY
