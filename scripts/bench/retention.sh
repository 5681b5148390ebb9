#!/usr/bin/env bash
# The retention under a large history, on a SQLite store: 1,000,000 finished items (two events
# each) are written straight into the schema, then
#   (a) /metrics scrape time, p50 and p99 of SCRAPES scrapes, with the history stored;
#   (b) enqueue p99 at idle, then while the background purge deletes the whole history
#       (a second server on the same file with --retention shorter than the history's age);
#   the purge's rate (the seeded items gone when it ends or PURGE_LIMIT passes), and the
#   file's and the WAL's size before and after the purge.
# Run by hand; it prints figures and asserts nothing. Servers listen on 127.0.0.1 only; only
# the script's own processes are stopped. Bounded: the purge is waited for at most PURGE_LIMIT s.
# ALERTD_BIN (.build/release/alertd) is the build measured; ITEMS (1000000) the history's size.
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT=${PORT:-18291}
ALERTD_BIN=${ALERTD_BIN:-.build/release/alertd}
ITEMS=${ITEMS:-1000000}
SCRAPES=${SCRAPES:-200}
SECONDS_TIMED=${SECONDS_TIMED:-15}
PURGE_LIMIT=${PURGE_LIMIT:-600}
ADMIN=bench-admin-token
. scripts/bench/build-check.sh
describe_build "$ALERTD_BIN"
work=$(mktemp -d)
db="$work/alertd.sqlite"
server=
stop_server() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  server=
}
trap 'stop_server; rm -rf "$work"' EXIT

start_server() {  # retention, log file
  "$ALERTD_BIN" serve --host 127.0.0.1 --port "$PORT" --store "sqlite:$db" --data-dir "$work" \
    --admin-token "$ADMIN" --log-level warning --retention "$1" >"$2" 2>&1 &
  server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/livez" >/dev/null && return; sleep 0.1; done
  echo "alertd did not start: $(cat "$2")" >&2
  exit 1
}

sizes() {  # label
  python3 - "$db" "$1" <<'PY'
import os, sqlite3, sys
db, label = sys.argv[1], sys.argv[2]
wal = os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else 0
c = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
pages, free = c.execute("PRAGMA page_count").fetchone()[0], c.execute("PRAGMA freelist_count").fetchone()[0]
print(f"{label}: file {os.path.getsize(db) / 2**20:.1f} MiB ({pages} pages, {free} free), WAL {wal / 2**20:.1f} MiB")
PY
}

# The schema, made by alertd itself (a new file: incremental auto-vacuum), and one item's content.
start_server 30d "$work/first.log"
curl -sf -X POST -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' \
  -d '{"alert":"app/questionExit"}' "http://127.0.0.1:$PORT/v1/sessions/seed/queue" >/dev/null
stop_server

echo "seeding $ITEMS finished items, 60 days old…"
started=$(date +%s)
python3 - "$db" "$ITEMS" <<'PY'
import sqlite3, sys, time
db, count = sys.argv[1], int(sys.argv[2])
c = sqlite3.connect(db, isolation_level=None)
c.execute("PRAGMA synchronous = OFF")
content, = c.execute("SELECT content FROM items LIMIT 1").fetchone()
# Sequences below the item alertd queued (1): the history comes before it in enqueue order,
# as it would have, since the purge's sweep stops at the first item enqueued within the retention.
first, = c.execute("SELECT min(sequence) FROM items").fetchone()
old = time.time() - 60 * 86400
c.execute("BEGIN")
for start in range(0, count, 50_000):
    rows = range(start, min(count, start + 50_000))
    c.executemany(
        "INSERT INTO items (ticket, session, content, priority, lane, dedupe_key, state, sequence, enqueued_at,"
        " deliveries, at_head) VALUES (?, ?, ?, 500, 'modal', ?, ?, ?, ?, 1, 0)",
        ((f"old{i:010d}", f"user-{i % 20000}", content, f"k{i}", "done" if i % 3 else "cancelled", first - count + i,
          old + i * 0.001) for i in rows))
    c.executemany(
        "INSERT INTO events (session, ticket, type, at, detail) VALUES (?, ?, ?, ?, '{}')",
        ((f"user-{i % 20000}", f"old{i:010d}", kind, old + i * 0.001 + offset)
         for i in rows for kind, offset in (("enqueued", 0), ("cancelled", 1))))
# Counted already, as a history that old would be: else the server's outcome roll-up reads the
# 2,000,000 seeded events during the idle phase and the figures measure it, not the purge.
c.execute("UPDATE outcome_cursor SET event_id = (SELECT max(id) FROM events)")
c.execute("COMMIT")
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
PY
echo "seeded in $(( $(date +%s) - started )) s"
sizes "before the purge"

timed() {  # what, seconds: sequential enqueues on one keep-alive connection; prints p50/p99
  python3 - "$PORT" "$ADMIN" "$1" "$2" <<'PY'
import http.client, json, sys, time
port, admin, what, seconds = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
conn = http.client.HTTPConnection("127.0.0.1", port)
headers = {"Authorization": f"Bearer {admin}", "Content-Type": "application/json"}
times, index, end = [], 0, time.monotonic() + seconds
while time.monotonic() < end:
    body = json.dumps({"alert": "app/questionExit", "dedupeKey": f"{what}-{index}"})
    start = time.perf_counter()
    conn.request("POST", f"/v1/sessions/live-{what}-{index % 5000}/queue", body=body, headers=headers)
    response = conn.getresponse(); response.read()
    times.append(time.perf_counter() - start)
    assert response.status == 201, response.status
    index += 1
times.sort()
pick = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000
print(f"enqueue {what}: {len(times)} in {seconds:.0f} s, p50 {pick(0.5):.2f} ms, p99 {pick(0.99):.2f} ms")
PY
}

# (a) and idle: a retention longer than the history's age purges nothing.
start_server 90d "$work/idle.log"
python3 - "$PORT" "$SCRAPES" <<'PY'
import http.client, sys, time
port, scrapes = int(sys.argv[1]), int(sys.argv[2])
conn = http.client.HTTPConnection("127.0.0.1", port)
def scrape():
    conn.request("GET", "/metrics"); response = conn.getresponse(); response.read(); return response.status
for _ in range(20): scrape()
times = []
for _ in range(scrapes):
    start = time.perf_counter(); status = scrape(); times.append(time.perf_counter() - start)
    assert status == 200
times.sort()
pick = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000
print(f"/metrics with the history stored: {scrapes} scrapes, p50 {pick(0.5):.2f} ms, p99 {pick(0.99):.2f} ms")
PY
timed idle "$SECONDS_TIMED"
stop_server

# (b) the same file, a retention of 30 days: the purge starts at once.
start_server 30d "$work/purge.log"
purge_started=$(date +%s.%N)
timed during-purge "$SECONDS_TIMED"
# The purge goes in enqueue order: it is done when the last seeded item is gone.
python3 - "$db" "$ITEMS" "$PURGE_LIMIT" "$purge_started" <<'PY'
import sqlite3, sys, time
db, count, limit, started = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
c = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
last = f"old{count - 1:010d}"
while c.execute("SELECT 1 FROM items WHERE ticket = ?", (last,)).fetchone() and time.time() - started < limit:
    time.sleep(0.5)
took = time.time() - started
left = c.execute("SELECT 1 FROM items WHERE ticket = ?", (last,)).fetchone()
# The seeded tickets sort before any alertd gives: what is left of them, through the key's index.
kept, = c.execute("SELECT count(*) FROM items WHERE ticket >= 'old' AND ticket < 'old~'").fetchone()
print(f"purge of {count} items: {'not done' if left else 'done'} after {took:.0f} s,"
      f" {count - kept} purged ({(count - kept) / took:.0f} items/s)")
PY
sizes "after the purge, server running"
timed after-purge 5
stop_server
sizes "after the purge, server stopped"
