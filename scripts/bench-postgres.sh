#!/usr/bin/env bash
# The PostgreSQL benchmark: run by hand (`make bench-postgres`); it prints figures and asserts nothing.
# A throwaway PostgreSQL 15 cluster in a temporary folder (127.0.0.1, a free port, default
# durability settings), stopped and deleted at the end; alertd's release build against it.
#   1. alertd enqueue throughput, 32 connections (wrk, scripts/bench/enqueue.lua), against the
#      anchor, pgbench's single-row insert rate on that cluster with 32 clients (goal: at least
#      0.6 of it): PAIRS pairs of rounds, pgbench then alertd, each pair's ratio printed. This
#      VM's speed swings by a quarter from one minute to the next; an anchor measured next to
#      each round keeps the ratio to what the code does. On one instance, then again with a
#      second instance listening (whose presence makes the first send NOTIFYs).
#   2. cross-instance wake-up latency: a long-poll waiting on instance A, the enqueue sent to
#      instance B, time until A answers; p50 and p99 over ROUNDS rounds (goal: p99 at most 250 ms)
# Settings: DURATION (4s, each round), PAIRS (3), POOL (alertd's --store-pool-size, 10),
# ROUNDS (300), PG_BIN, ALERTD_BIN.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-4s}
PAIRS=${PAIRS:-3}
POOL=${POOL:-10}
ROUNDS=${ROUNDS:-300}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
ALERTD_BIN=${ALERTD_BIN:-.build/release/alertd}
. scripts/bench/build-check.sh
describe_build "$ALERTD_BIN"
ADMIN=bench-admin-token

. scripts/bench/postgres-cluster.sh
start_cluster
psql -d postgres -c "CREATE DATABASE anchor" -c "CREATE DATABASE alertd"
echo "PostgreSQL $(psql -d postgres -tAc 'SHOW server_version') on 127.0.0.1:$PGPORT" \
  "(fsync $(psql -d postgres -tAc 'SHOW fsync'), synchronous_commit $(psql -d postgres -tAc 'SHOW synchronous_commit'))"

psql -d anchor -c "CREATE TABLE items (id bigserial PRIMARY KEY, session text NOT NULL, content jsonb NOT NULL, enqueued_at double precision NOT NULL)"
cat >"$work/insert.sql" <<'SQL'
INSERT INTO items (session, content, enqueued_at) VALUES ('bench-' || :client_id, '{"alert":"app/newMessages","params":{"count":1}}', extract(epoch FROM now()));
SQL

ulimit -n "$(ulimit -Hn)"
PORT_A=$(free_port)
start_alertd a "$PORT_A"

# PAIRS pairs of rounds: pgbench's inserts, then alertd's enqueues on instance A; each pair's
# ratio, then the median of the ratios.
pairs() {  # label key (keeps each round's sessions and dedupe keys its own)
  local ratios=() pair anchor rate
  for pair in $(seq "$PAIRS"); do
    anchor=$("$PG_BIN/pgbench" -h 127.0.0.1 -p "$PGPORT" -U postgres -n -c 32 -j 2 -T "${DURATION%s}" -f "$work/insert.sql" anchor 2>&1 \
      | awk '/^tps = / {print $3}')
    ADMIN=$ADMIN ROUND="$2$pair" wrk -t2 -c32 -d"$DURATION" --latency -s scripts/bench/enqueue.lua "http://127.0.0.1:$PORT_A" >"$work/wrk.txt"
    grep -E "Non-2xx|Socket errors" "$work/wrk.txt" || true
    rate=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt")
    ratios+=("$(awk -v rate="$rate" -v anchor="$anchor" 'BEGIN { printf "%.2f", rate / anchor }')")
    printf "pair %d: pgbench %.0f inserts/s, alertd %.0f enqueues/s (p99 %s): %s\n" "$pair" "$anchor" "$rate" \
      "$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")" "${ratios[-1]}"
  done
  printf "enqueue / pgbench inserts (%s), median of %d pairs: %s (goal: at least 0.60)\n" "$1" "$PAIRS" \
    "$(printf "%s\n" "${ratios[@]}" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')"
}

echo "== pgbench single-row inserts (32 clients) then alertd enqueues (32 connections), $DURATION each, one instance (--store-pool-size $POOL)"
pairs "one instance" a

PORT_B=$(free_port)
start_alertd b "$PORT_B"
# With a second instance listening, A's writes NOTIFY it (alone, an instance sends none).
echo "== the same pairs with instance B listening"
pairs "B listening" b

echo "== cross-instance wake-up: long-poll on A, enqueue on B, $ROUNDS rounds"
PORT_A=$PORT_A PORT_B=$PORT_B ADMIN=$ADMIN ROUNDS=$ROUNDS python3 - <<'PY'
import http.client, json, os, threading, time
a, b, admin, rounds = int(os.environ["PORT_A"]), int(os.environ["PORT_B"]), os.environ["ADMIN"], int(os.environ["ROUNDS"])
session = "wake-bench"
def call(conn, method, path, token, body=None):
    headers = {"Authorization": "Bearer " + token}
    if body is not None: headers["Content-Type"] = "application/json"
    conn.request(method, "/v1/sessions/%s%s" % (session, path), body=body, headers=headers)
    response = conn.getresponse()
    return response.status, response.read()
backend, app, acker = (http.client.HTTPConnection("127.0.0.1", port, timeout=30) for port in (b, a, a))
status, body = call(backend, "POST", "/token", admin)
token = json.loads(body)["token"]
latencies, late = [], 0
for i in range(rounds):
    answer = {}
    def poll():
        answer["status"], answer["body"] = call(app, "GET", "/next?wait=10", token)
        answer["at"] = time.perf_counter()
    poller = threading.Thread(target=poll); poller.start()
    time.sleep(0.02)  # let the poll park on A
    sent = time.perf_counter()
    call(backend, "POST", "/queue", admin, json.dumps({"alert": "app/questionExit", "dedupeKey": "round-%d" % i}))
    poller.join()
    if answer["status"] != 200: late += 1; continue
    latencies.append((answer["at"] - sent) * 1000)
    call(acker, "POST", "/queue/%s/ack" % json.loads(answer["body"])["ticket"], token)
latencies.sort()
pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
print("wake-up latency over %d rounds: p50 %.1f ms, p99 %.1f ms, max %.1f ms (goal: p99 at most 250 ms)%s"
      % (len(latencies), pick(0.5), pick(0.99), latencies[-1], "; %d polls not woken" % late if late else ""))
PY
