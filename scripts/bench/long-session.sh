#!/usr/bin/env bash
# The queue on long sessions (run by bench-queue.sh, or alone): enqueues (wrk, 32 connections),
# and enqueue -> next -> ack cycles (cycle.c), into sessions holding LONG (10,000) queued items
# beside the same into empty sessions; each rate and the ratio empty / long. Prints figures,
# asserts nothing; the server listens on 127.0.0.1.
# STORE=sqlite (the default): the long sessions are filled in the SQLite file while the server
# is stopped. STORE=postgres: on a throwaway PostgreSQL cluster (postgres-cluster.sh, removed
# at exit), filled with one INSERT ... SELECT while the server runs. Either way with copies of an
# item queued through the API, at priority 0, so that a cycle's own item is delivered first.
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT=${PORT:-18283}
ALERTD_BIN=${ALERTD_BIN:-.build/release/alertd}
DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-3}
LONG=${LONG:-10000}
CYCLE_SESSIONS=${CYCLE_SESSIONS:-8}
STORE=${STORE:-sqlite}
ENQUEUE_SESSIONS=4
ADMIN=bench-admin-token
server=
if [ "$STORE" = postgres ]; then
  PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
  POOL=${POOL:-10}
  . scripts/bench/postgres-cluster.sh
  trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; cleanup' EXIT
  start_cluster
  psql -d postgres -c "CREATE DATABASE alertd"
  store_url="postgres://postgres@127.0.0.1:$PGPORT/alertd?sslmode=disable"
  store_args=(--store "$store_url" --store-pool-size "$POOL")
  data_dir=$work/alertd
  mkdir -p "$data_dir"
else
  work=$(mktemp -d)
  trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
  store_args=(--store "sqlite:$work/alertd.sqlite")
  data_dir=$work
fi
ulimit -n "$(ulimit -Hn)"
api="http://127.0.0.1:$PORT"

start_server() {
  "$ALERTD_BIN" serve --host 127.0.0.1 --port "$PORT" "${store_args[@]}" --data-dir "$data_dir" \
    --admin-token "$ADMIN" --per-client-connection-limit 0 --max-queue-length 1000000 --log-level warning \
    >>"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do curl -sf "$api/livez" >/dev/null && break; sleep 0.1; done
}
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=; }

start_server
curl -sf -X POST -H "Authorization: Bearer $ADMIN" -H "Content-Type: application/json" \
  -d '{"alert":"app/newMessages","params":{"count":1,"sender":"s"},"priority":0,"dedupeKey":"template"}' \
  "$api/v1/sessions/template/queue" >/dev/null
long_sessions=()
for round in $(seq "$ROUNDS"); do
  for i in $(seq 0 $((ENQUEUE_SESSIONS - 1))); do long_sessions+=("lenq-$round-$i"); done
  for i in $(seq "$CYCLE_SESSIONS"); do long_sessions+=("lcyc-$round-$i"); done
done
echo "== filling ${#long_sessions[@]} sessions with $LONG queued items each ($STORE)"
if [ "$STORE" = postgres ]; then
  psql -d alertd -v ON_ERROR_STOP=1 -v long="$LONG" -v sessions="{$(IFS=,; echo "${long_sessions[*]}")}" <<'SQL'
INSERT INTO alertd.items (ticket, session, content, priority, lane, dedupe_key, state, sequence, enqueued_at, at_head)
SELECT 'fill-' || s.session || '-' || g, s.session, t.content, 0, t.lane, 'fill-' || g, 'queued',
    nextval('alertd.item_sequence'), extract(epoch FROM now()), false
FROM alertd.items AS t, unnest(:'sessions'::text[]) AS s(session), generate_series(1, :long) AS g
WHERE t.session = 'template';
ANALYZE alertd.items;
SQL
else
  stop_server
  python3 - "$work/alertd.sqlite" "$LONG" "${long_sessions[@]}" <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1])
count, sessions = int(sys.argv[2]), sys.argv[3:]
content, lane = db.execute("SELECT content, lane FROM items WHERE session = 'template'").fetchone()
sequence = db.execute("SELECT max(sequence) FROM items").fetchone()[0]
rows = []
for session in sessions:
    for _ in range(count):
        sequence += 1
        rows.append((f"fill{sequence}", session, content, 0, lane, f"fill{sequence}", "queued", sequence, time.time(), None, 0, None, 0))
db.executemany("INSERT INTO items (ticket, session, content, priority, lane, dedupe_key, state, sequence, enqueued_at, "
               "expires_at, deliveries, lease_until, at_head) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
db.commit()
PY
  start_server
fi

# enqueues/s into the sessions $1-0 … $1-($2-1), round $3
enqueue_rate() {
  out=$(ADMIN=$ADMIN PREFIX=$1 SESSIONS=$2 wrk -t2 -c32 -d"$DURATION" -s scripts/bench/enqueue-sessions.lua "$api")
  grep -E "Non-2xx|Socket errors" <<<"$out" >&2 || true
  awk '/Requests\/sec/ {print $2}' <<<"$out"
}
# cycles/s on the sessions $1-1 … $1-CYCLE_SESSIONS, one connection each
cycle_rate() {
  for i in $(seq "$CYCLE_SESSIONS"); do
    token=$(curl -s -X POST -H "Authorization: Bearer $ADMIN" "$api/v1/sessions/$1-$i/token" \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
    echo "$1-$i $token"
  done >"$work/tokens"
  out=$("$work/cycle" 127.0.0.1 "$PORT" "${DURATION%s}" "$ADMIN" "$work/tokens")
  grep -oE 'cycles: [0-9.]+' <<<"$out" | cut -d' ' -f2
}
cc -O2 -o "$work/cycle" scripts/bench/cycle.c
: >"$work/figures"
for round in $(seq "$ROUNDS"); do
  e=$(enqueue_rate "eenq-$round" 10000); l=$(enqueue_rate "lenq-$round" "$ENQUEUE_SESSIONS")
  ce=$(cycle_rate "ecyc-$round"); cl=$(cycle_rate "lcyc-$round")
  echo "round $round: enqueue empty $e/s, long $l/s; cycles empty $ce/s, long $cl/s"
  echo "$e $l $ce $cl" >>"$work/figures"
done
python3 - "$work/figures" "$LONG" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
e, l, ce, cl = (statistics.median(column) for column in zip(*rows))
print(f"medians: enqueue {e:,.0f}/s empty, {l:,.0f}/s with {int(sys.argv[2]):,} queued: empty / long {e / l:.2f}")
print(f"         enqueue -> next -> ack {ce:,.0f} cycles/s empty, {cl:,.0f} long: empty / long {ce / cl:.2f} (goal <= 2)")
PY
