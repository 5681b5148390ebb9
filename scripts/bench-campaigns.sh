#!/usr/bin/env bash
# Campaigns, recall and withdraws: run by hand (`make bench-campaigns`); it prints figures and
# asserts nothing. Everything on 127.0.0.1, against a release build.
#   1. SQLite (--durability full, the default): a campaign to the SESSIONS (100,000) sessions of
#      a topic, POLLERS (10,000) of them long-polling (scripts/bench/campaigns.py): the fan-out's
#      items/s (goal >= 20,000), every poll woken with its copy, p99 from the campaign's start
#      (goal <= 1 s), live enqueue/next/ack p99 during the fan-out against idle (goal <= 2x), the
#      recall of the copies (goal <= 2 s); the same campaign again with no poll waiting, then
#      with nothing beside it (its rate alone).
#   2. PostgreSQL (a throwaway cluster, scripts/bench/postgres-cluster.sh): the same campaign's
#      fan-out to PG_SESSIONS (20,000) sessions, no polls, against pgbench inserting single rows
#      in transactions of a batch's size (200, one client, as the fan-out runs), measured right
#      before (goal >= 0.5x); then a second instance, and ROUNDS (200) withdraws across them: a
#      user's copy acked on B, the phone's poll waiting on A answered with the withdraw
#      (goal p99 <= 250 ms).
# STORES ("sqlite postgres" by default) runs only the parts named.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg) (figures are only comparable on an idle machine)"
ALERTD_BIN=${ALERTD_BIN:-.build/release/alertd}
. scripts/bench/build-check.sh
describe_build "$ALERTD_BIN"
ADMIN=bench-admin-token
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
POOL=${POOL:-10}
STORES=${STORES:-sqlite postgres}
ulimit -n "$(ulimit -Hn)"

. scripts/bench/postgres-cluster.sh

if [[ " $STORES " == *" sqlite "* ]]; then
echo "== SQLite: a campaign to ${SESSIONS:-100000} sessions of a topic, ${POLLERS:-10000} of them polling"
PORT=$(free_port)
mkdir -p "$work/sqlite"
"$ALERTD_BIN" serve --host 127.0.0.1 --port "$PORT" --store "sqlite:$work/sqlite/alertd.sqlite" --data-dir "$work/sqlite" \
  --admin-token "$ADMIN" --per-client-connection-limit 0 --log-level warning >"$work/sqlite.log" 2>&1 &
servers+=($!)
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/livez" >/dev/null && break; sleep 0.1; done
PORT=$PORT ADMIN=$ADMIN python3 scripts/bench/campaigns.py --campaign
kill "${servers[-1]}"; wait "${servers[-1]}" 2>/dev/null || true
fi
[[ " $STORES " == *" postgres "* ]] || exit 0

echo "== PostgreSQL: a campaign's fan-out against pgbench's single-row inserts, 200 a transaction"
start_cluster
psql -d postgres -c "CREATE DATABASE anchor" -c "CREATE DATABASE alertd"
psql -d anchor -c "CREATE TABLE items (id bigserial PRIMARY KEY, session text NOT NULL, content jsonb NOT NULL, enqueued_at double precision NOT NULL)"
{
  echo "BEGIN;"
  for _ in $(seq 200); do
    echo "INSERT INTO items (session, content, enqueued_at) VALUES ('bench-' || :client_id, '{\"alert\":\"app/saved\",\"params\":{}}', extract(epoch FROM now()));"
  done
  echo "COMMIT;"
} >"$work/batch.sql"
anchor=$("$PG_BIN/pgbench" -h 127.0.0.1 -p "$PGPORT" -U postgres -n -c 1 -T 5 -f "$work/batch.sql" anchor 2>&1 | awk '/^tps = / {print $3 * 200}')
PORT_A=$(free_port)
start_alertd a "$PORT_A"
rate=$(PORT=$PORT_A ADMIN=$ADMIN SESSIONS=${PG_SESSIONS:-20000} python3 scripts/bench/campaigns.py --fan-out | tee /dev/stderr | awk '/^RATE / {print $2}')
printf "pgbench: %.0f single-row inserts/s in transactions of 200; fan-out / pgbench = %.2f (goal >= 0.5)\n" "$anchor" \
  "$(awk -v r="$rate" -v a="$anchor" 'BEGIN { print r / a }')"

echo "== PostgreSQL: withdraws across two instances"
PORT_B=$(free_port)
start_alertd b "$PORT_B"
PORT_A=$PORT_A PORT_B=$PORT_B ADMIN=$ADMIN ROUNDS=${ROUNDS:-200} python3 scripts/bench/campaigns.py --withdraw
