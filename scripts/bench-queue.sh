#!/usr/bin/env bash
# The queue benchmark: run by hand (`make bench-queue`); it prints figures and asserts nothing.
# Everything runs on 127.0.0.1 against a release build, each run bounded in time.
#   1-2. for each durability (`full`, then `process`): the raw SQLite commit rate on this disk in
#      the same mode (WAL, synchronous=FULL or NORMAL, one row per commit), the anchor; then
#      enqueue throughput at 32 connections (wrk) on a server in that mode. With `full`, each round
#      runs twice, `--timeline on` and `--timeline off`, on a fresh server and store each, the
#      side that goes first alternating; each round's ratio on / off, then their median
# The rest runs with the default durability (`full`):
#   3. enqueue -> next -> ack cycles per second (scripts/bench/cycle.c, one session per connection),
#      with the timeline on and off: each round starts both servers (fresh stores), runs cycles
#      on each until its WAL is reused from its beginning, as a running server's is (a growing
#      WAL has every fdatasync commit the file's size too, several times slower), then measures
#      each side's $DURATION in two halves, interleaved on / off / off / on (off / on / on / off
#      in even rounds), the other server idle, so that both sides meet the same seconds of the
#      disk; each round's ratio, then their median (see the section's own comments); then one
#      server for 4-6. (The enqueue rounds of 1 still measure fresh stores, WAL growing.)
#   4. long-polls woken by enqueues under load (scripts/bench/wakeups.py): server CPU per wake-up
#   5. this machine's own jitter (scripts/bench/jitter.c): fixed work, timed after the same idle
#      gap as the wake-ups; on a VM it runs several times slower now and then, and so does a wake-up
#   6. 10,000 suspended long-polls: server memory per waiter; enqueue -> woken poll latency, and
#      beside it this VM's floor (a request that does no work, after the same idle gap)
#   7. long sessions (scripts/bench/long-session.sh, on a server of its own): enqueues and cycles
#      on sessions holding 10,000 queued items beside empty ones, and the ratio
# PART runs one part alone: timeline (1-3), longpolls (4-6), pacing, long-sessions.
# ALERTD_BIN (.build/release/alertd) is the build measured. DURATION (5s) and ROUNDS (5) are
# the enqueue and cycle rounds'; WAKE_ROUNDS (400) the wake-ups'. (ROUNDS from the environment
# once reached the long-poll script as well: with ROUNDS=4, its p99 came from four wake-ups.)
set -euo pipefail
cd "$(dirname "$0")/.."
echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg) (figures are only comparable on an idle machine)"
PORT=${PORT:-18282}
ALERTD_BIN=${ALERTD_BIN:-.build/release/alertd}
. scripts/bench/build-check.sh
describe_build "$ALERTD_BIN"
DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-5}
ADMIN=bench-admin-token
work=$(mktemp -d)
server=
servers=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; [ -n "$servers" ] && kill $servers 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
ulimit -n "$(ulimit -Hn)"

# What each side of a comparison runs: the server's flags (SIDE_FLAGS) and the pacing rule its
# clients' enqueues carry (SIDE_PACING, a JSON member). The timeline's sides are `on` and `off`;
# pacing's are `paced` (every rule that lets a cycle go on, below) and `unpaced`.
declare -A SIDE_FLAGS=([on]="--timeline on" [off]="--timeline off" [unpaced]="")
declare -A SIDE_PACING=([on]="" [off]="" [unpaced]="")
# Pacing on every item and every session, none of it holding a cycle back (a gap would): two
# limits on the alert (per session per hour, per user per day; a session without a user counts
# alone), the most modals a day, and quiet hours of one hour six hours ahead (in UTC, the zone
# of a session without one): judged on every step, holding nothing back.
quiet_start=$(date -u -d '+6 hours' +%H:00)
quiet_end=$(date -u -d '+7 hours' +%H:00)
SIDE_FLAGS[paced]="--max-modals-per-day 10000 --quiet-hours $quiet_start-$quiet_end"
SIDE_PACING[paced]='"pacing":{"limits":[{"count":10000,"period":"1h"},{"count":10000,"period":"1d","scope":"user"}]}'

# Starts a server with durability $1, as side $2 (default on) sees it, on a fresh store in
# folder $3 (default $work); request lines off (--log-level warning): the figures measure the
# queue, not the log.
start_server() {
  local dir=${3:-$work}
  mkdir -p "$dir"
  rm -f "$dir"/alertd.sqlite*
  # shellcheck disable=SC2086  # the side's flags are words
  "$ALERTD_BIN" serve --host 127.0.0.1 --port "$PORT" --store "sqlite:$dir/alertd.sqlite" --durability "$1" \
    ${SIDE_FLAGS[${2:-on}]} --data-dir "$dir" --admin-token "$ADMIN" --per-client-connection-limit 0 --log-level warning \
    >"$dir/server.log" 2>&1 &
  server=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/livez" >/dev/null && break; sleep 0.1; done
}
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=; }

# The server's CPU time so far, in clock ticks (1/100 s): per-request CPU is steadier than
# requests/s on a machine where something else may run.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }

# The two sides $2 and $3 in the order of round $1: $2 first in odd rounds, $3 first in even
# ones, so that neither side always runs on the warmer (or the busier) minute.
side_order() { [ $(($1 % 2)) = 1 ] && echo "$2 $3" || echo "$3 $2"; }

# Prints a round's ratios, side $3 / side $4, of the rate and of the server CPU per request,
# from the lines of $work/side-$3 and $work/side-$4 (rate, then µs per request), and keeps
# them in $work/ratios-<what>-$3 for the median.
side_ratio() {  # what round side other
  python3 - "$1" "$2" "$3" "$4" "$(cat "$work/side-$3")" "$(cat "$work/side-$4")" "$work/ratios-${1%%/*}-$3" <<'PY'
import sys
what, round, side, other, on, off, keep = sys.argv[1:8]
(rate_on, cpu_on), (rate_off, cpu_off) = (map(float, on.split()), map(float, off.split()))
print(f"round {round}: {side} / {other}: {what} {rate_on / rate_off:.3f}, server CPU per request {cpu_on / cpu_off:.3f}")
open(keep, "a").write(f"{rate_on / rate_off} {cpu_on / cpu_off}\n")
PY
}

# The median of each round's ratios (see side_ratio), against the goal: at most $4 % of cost.
side_median() {  # what side other goal-percent
  python3 - "$1" "$2" "$3" "$4" "$work/ratios-${1%%/*}-$2" <<'PY'
import statistics, sys
what, side, other, goal, keep = sys.argv[1:6]
rows = [list(map(float, line.split())) for line in open(keep)]
rate, cpu = statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows)
print(f"{side} / {other}, median of {len(rows)} rounds: {what} {rate:.3f}, server CPU per request {cpu:.3f}"
      f" (goal: a cost of at most {goal} %: {what} >= {1 - int(goal) / 100:.2f})")
PY
}

# One enqueue round of $DURATION on the server running, named $1: prints its line and writes
# its rate and server CPU per enqueue to $work/side-$2 when given.
enqueue_round() {  # name [side]
  local before after out
  before=$(cpu_ticks)
  out=$(ROUND=$1 ADMIN=$ADMIN PACING=${SIDE_PACING[${2:-on}]:-} wrk -t2 -c32 -d"$DURATION" --latency -s scripts/bench/enqueue.lua "http://127.0.0.1:$PORT")
  after=$(cpu_ticks)
  grep -E "Non-2xx|Socket errors" <<<"$out" || true
  python3 - "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" "$(awk '$1 == "99%" {print $2}' <<<"$out")" \
    "$((after - before))" "${DURATION%s}" "$1" "$work/side-${2:-none}" <<'PY'
import sys
rps, p99, ticks, seconds, round, side = float(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
cpu = ticks * 1e4 / (rps * seconds)
print(f"round {round}: {rps:,.0f} enqueues/s, p99 {p99}, server CPU {cpu:.0f} us per enqueue")
open(side, "w").write(f"{rps} {cpu}\n")
PY
}

# Enqueue rounds comparing side $1 with side $2, each on a fresh server and store per round,
# the side that goes first alternating; the goal is a cost of at most $3 %.
enqueue_rounds() {  # side other goal-percent
  for round in $(seq "$ROUNDS"); do
    for side in $(side_order "$round" "$1" "$2"); do
      start_server full "$side"
      enqueue_round "full-$round-$side" "$side"
      stop_server
    done
    side_ratio enqueues/s "$round" "$1" "$2"
  done
  side_median enqueues/s "$1" "$2" "$3"
}

# Whether the part named runs (PART unset: every part).
runs() { [ -z "${PART:-}" ] || [ "$PART" = "$1" ]; }

for durability in full process; do
  runs timeline || break
  synchronous=$([ "$durability" = full ] && echo FULL || echo NORMAL)
  echo "== --durability $durability: raw SQLite commits (python sqlite3, WAL, synchronous=$synchronous, single-row commits for 3 s)"
  python3 - "$work/raw-$durability.sqlite" "$synchronous" <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=WAL"); db.execute(f"PRAGMA synchronous={sys.argv[2]}")
db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)")
n = 0; start = time.perf_counter()
while time.perf_counter() - start < 3:
    db.execute("BEGIN IMMEDIATE"); db.execute("INSERT INTO t (body) VALUES (?)", ("x" * 200,)); db.execute("COMMIT")
    n += 1
print(f"raw SQLite: {n / (time.perf_counter() - start):,.0f} commits/s")
PY
  if [ "$durability" = full ]; then
    echo "== --durability full: enqueue, 32 connections, $ROUNDS rounds of $DURATION with --timeline on and off each"
    enqueue_rounds on off 10
  else
    start_server "$durability"
    echo "== --durability $durability: enqueue, 32 connections, $ROUNDS rounds of $DURATION"
    for round in $(seq "$ROUNDS"); do enqueue_round "$durability-$round"; done
    stop_server
  fi
done

SESSIONS=${SESSIONS:-32}
runs timeline && echo "== enqueue -> next -> ack cycles, $SESSIONS sessions in parallel (one keep-alive connection each), $DURATION per side and round, --timeline on and off each round, interleaved"
# A small C client (scripts/bench/cycle.c): one thread and epoll for every connection, so it
# leaves the two cores to the server; wrk cannot chain a cycle's requests per connection.
cc -O2 -o "$work/cycle" scripts/bench/cycle.c
# Each round starts both servers, on fresh stores, and runs each side's cycles in two halves of
# $DURATION, interleaved on / off / off / on (off / on / on / off in even rounds): both sides
# meet the same disk, whose flush times drift over seconds, and a drift within the round falls
# on both alike. (One run of $DURATION per side, one after the other, saw round ratios from
# 0.69 to 1.16 with the timeline's instruction count 6 % above off.)
half=$(python3 -c "print(${DURATION%s} / 2)")
# A fresh store's WAL grows with every commit until the checkpointer starts it again from its
# beginning (`Checkpointer.restartFrames`, 16,384 pages, 64 MiB); until then every commit's
# fdatasync also commits the file's new size and blocks to the ext4 journal, several times
# slower than a sync of blocks overwritten (on the development VM, under the same load: 300 to
# 1,250 cycles/s on fresh stores, 1,700 to 5,000 once the WAL was reused). A 5 s run on a fresh
# store was part one, part the other, and where each side's WAL stood swung a round's ratio (a
# round of fresh stores, interleaved, measured 3.4). Before a round is measured, each server
# runs cycles (sessions of their own) until its WAL has passed that size, and a second more, so
# that both sides are measured as a running server runs, its WAL reused.
wal_frames=$(((16384 + 64) * (4096 + 24)))
warm_wal() {  # port folder tokens
  CYCLE_PACING=${CYCLE_PACING:-} "$work/cycle" 127.0.0.1 "$1" 60 "$ADMIN" "$3" >/dev/null 2>&1 &
  local client=$!
  while kill -0 "$client" 2>/dev/null && [ "$(stat -c %s "$2/alertd.sqlite-wal" 2>/dev/null || echo 0)" -lt "$wal_frames" ]; do
    sleep 0.2
  done
  sleep 1
  kill "$client" 2>/dev/null || true
  wait "$client" 2>/dev/null || true
  echo "(warmed: WAL $(($(stat -c %s "$2/alertd.sqlite-wal") / 1048576)) MiB)"
}
# Cycle rounds comparing side $1 with side $2 (see above for the method); the goal is a cost
# of at most $3 %.
cycle_rounds() {  # side other goal-percent
  local round side first second step
  for round in $(seq "$ROUNDS"); do
    declare -A pids=() ports=()
    for side in "$1" "$2"; do
      ports[$side]=$([ "$side" = "$1" ] && echo "$PORT" || echo $((PORT + 1)))
      PORT=${ports[$side]} start_server full "$side" "$work/$side"
      pids[$side]=$server
      servers="${servers:+$servers }$server"
      # Sessions of their own each half: a cycle cut off by the end of a half leaves its alert
      # presenting, which would hold back that session's next half.
      for part in warm 1 2; do
        for i in $(seq "$SESSIONS"); do
          token=$(curl -s -X POST -H "Authorization: Bearer $ADMIN" "http://127.0.0.1:${ports[$side]}/v1/sessions/cycle-$round-$part-$i/token" \
            | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
          echo "cycle-$round-$part-$i $token"
        done >"$work/tokens-$side-$part"
      done
      : >"$work/halves-$side"
    done
    for side in "$1" "$2"; do CYCLE_PACING=${SIDE_PACING[$side]} warm_wal "${ports[$side]}" "$work/$side" "$work/tokens-$side-warm"; done
    read -r first second <<<"$(side_order "$round" "$1" "$2")"
    part_of=([0]=1 [1]=1 [2]=2 [3]=2)
    step=0
    for side in "$first" "$second" "$second" "$first"; do
      server=${pids[$side]}
      before=$(cpu_ticks)
      out=$(CYCLE_PACING=${SIDE_PACING[$side]} "$work/cycle" 127.0.0.1 "${ports[$side]}" "$half" "$ADMIN" "$work/tokens-$side-${part_of[$step]}")
      after=$(cpu_ticks)
      echo "round $round, $side, half ${part_of[$step]}: $out"
      echo "$out|$((after - before))" >>"$work/halves-$side"
      step=$((step + 1))
    done
    for side in "$1" "$2"; do server=${pids[$side]}; stop_server; done
    servers=
    for side in "$1" "$2"; do
      python3 - "$work/halves-$side" "$half" "$round, $side" "$work/side-$side" <<'PY'
import re, sys
halves, seconds, round, side = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
requests = ticks = 0.0
for line in open(halves):
    out, used = line.rsplit("|", 1)
    requests += float(re.search(r"\(([0-9.]+) requests/s", out).group(1)) * seconds
    ticks += int(used)
rps = requests / (2 * seconds)
cpu = ticks * 1e4 / requests
print(f"round {round}: {rps / 3:,.0f} cycles/s; server CPU {cpu:.0f} us per request")
open(side, "w").write(f"{rps / 3} {cpu}\n")
PY
    done
    side_ratio cycles/s "$round" "$1" "$2"
  done
  side_median cycles/s "$1" "$2" "$3"
}
runs timeline && cycle_rounds on off 10

if runs longpolls; then
start_server full
echo "== long-polls woken by enqueues, under load"
PORT=$PORT ADMIN=$ADMIN PID=$server python3 scripts/bench/wakeups.py

echo "== this machine's jitter, no request running"
cc -O2 -o "$work/jitter" scripts/bench/jitter.c
"$work/jitter" 400 5000

echo "== long-polls"
PORT=$PORT ADMIN=$ADMIN PID=$server ROUNDS=${WAKE_ROUNDS:-400} python3 scripts/bench/longpolls.py
echo "server peak RSS: $(awk '/VmHWM/ {print $2, $3}' /proc/$server/status)"
stop_server
fi

runs pacing && {
echo "== pacing: enqueues and cycles with every rule that lets them go on ($quiet_start-$quiet_end quiet, limits, modals a day), beside none"
echo "-- enqueue, 32 connections, $ROUNDS rounds of $DURATION each side"
enqueue_rounds paced unpaced 15
echo "-- enqueue -> next -> ack cycles, $SESSIONS sessions, interleaved as above"
cycle_rounds paced unpaced 15
}

runs long-sessions || exit 0
echo "== long sessions: the same enqueues and cycles on sessions holding 10,000 items, beside empty ones"
PORT=$PORT ALERTD_BIN=$ALERTD_BIN DURATION=$DURATION ROUNDS=$ROUNDS scripts/bench/long-session.sh
