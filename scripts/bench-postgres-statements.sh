#!/usr/bin/env bash
# Where PostgreSQL's share of an enqueue goes: run by hand (`make bench-postgres-statements`);
# it prints figures and asserts nothing.
# A throwaway PostgreSQL 15 cluster with pg_stat_statements (every statement, those inside
# alertd's functions too, with their planning time) and alertd's release build on it; wrk
# enqueues for DURATION at 32 connections (scripts/bench/enqueue.lua), after a warm-up left out
# of the counts. Prints the rate, then per batch of enqueues each statement's calls, mean
# planning and execution time and rows, and the batch size. `bench-postgres` gives the
# throughput against pgbench; this says which statement to look at (pg_stat_statements costs a
# little itself, so its rate runs a few per cent under bench-postgres's).
# Settings: DURATION (6s), POOL (alertd's --store-pool-size, 10), PG_BIN, ALERTD_BIN.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-6s}
POOL=${POOL:-10}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
ALERTD_BIN=${ALERTD_BIN:-.build/release/alertd}
. scripts/bench/build-check.sh
describe_build "$ALERTD_BIN"
ADMIN=bench-admin-token

. scripts/bench/postgres-cluster.sh
start_cluster "shared_preload_libraries = 'pg_stat_statements'" "pg_stat_statements.track = all" \
  "pg_stat_statements.track_planning = on"
psql -d postgres -c "CREATE DATABASE alertd"
psql -d alertd -c "CREATE EXTENSION pg_stat_statements"

ulimit -n "$(ulimit -Hn)"
PORT=$(free_port)
start_alertd a "$PORT"

ADMIN=$ADMIN ROUND=warm wrk -t2 -c32 -d2s -s scripts/bench/enqueue.lua "http://127.0.0.1:$PORT" >/dev/null
psql -d alertd -c "SELECT pg_stat_statements_reset()" >/dev/null
echo "== alertd enqueues, 32 connections, $DURATION, PostgreSQL $(psql -d alertd -tAc 'SHOW server_version') (--store-pool-size $POOL)"
ADMIN=$ADMIN ROUND=counted wrk -t2 -c32 -d"$DURATION" -s scripts/bench/enqueue.lua "http://127.0.0.1:$PORT" | grep -E "Requests/sec|Non-2xx|Socket errors"

# A batch is one call of alertd.enqueue_counted (at once) or of alertd.insert_items (the general
# way, for what the first held back; none here, where every enqueue is new). Its enqueues are
# the sessions it stamps: this workload spreads them over 10,000 sessions, so two of a batch
# share one rarely.
psql -d alertd <<'SQL'
\pset footer off
WITH batches AS (
  SELECT sum(calls) AS n FROM pg_stat_statements
  WHERE query LIKE 'SELECT alertd.insert_items(%' OR query LIKE 'SELECT * FROM alertd.enqueue_counted(%'
), enqueues AS (
  SELECT sum(rows) AS n FROM pg_stat_statements WHERE query LIKE 'INSERT INTO alertd.sessions AS s (session)%SELECT DISTINCT%'
)
SELECT (SELECT n FROM batches) AS batches, (SELECT n FROM enqueues) AS enqueues,
  round((SELECT n FROM enqueues) / nullif((SELECT n FROM batches), 0), 1) AS "enqueues per batch";

SELECT calls, round(mean_plan_time::numeric, 3) AS "plan ms", round(mean_exec_time::numeric, 3) AS "exec ms",
  round(rows::numeric / nullif(calls, 0), 1) AS "rows each", CASE WHEN toplevel THEN 'sent' ELSE 'inside' END AS "by",
  left(regexp_replace(query, '\s+', ' ', 'g'), 90) AS statement
FROM pg_stat_statements
WHERE query NOT LIKE '%pg_stat_statements%' AND calls > 1
ORDER BY total_exec_time + total_plan_time DESC LIMIT 12;
SQL
