#!/usr/bin/env bash
# Counts the instructions alertd runs per request, under valgrind's callgrind: run by hand
# (`make bench-instructions`); it prints figures and asserts nothing.
#
# Requests per second follow the machine's speed of the hour (by up to a half on the development
# VM); instruction counts do not, so two builds can be compared at any time, one after the other.
# They count user space only (alertd, its libraries, libc), never the kernel, and a run under
# valgrind serializes the threads, so batches of writes differ a little from run to run: treat
# differences under 2 % as noise.
#
#   WORKLOAD  enqueue (default: new parameters and dedupe key each, 32 connections, SQLite store
#             in a temporary folder), hit (the render endpoint, one cached alert), 304 (the
#             same, revalidated with If-None-Match), miss (the render endpoint, new parameters
#             each) or cycle (enqueue -> next -> ack, one session per connection)
#   COUNT     requests counted (default 3200), after 1000 not counted (caches, batches warm)
#   ALERTD_BIN  the build to count (default .build/release/alertd)
#   STORE     the queue store (default: SQLite in the temporary folder); a postgres:// URL counts
#             alertd's side of the PostgreSQL store against a database you started
#   ALERTD_TIMELINE  off counts a queue without timelines (the server takes ALERTD_* variables;
#             ALERTD_MAX_MODALS_PER_DAY, ALERTD_QUIET_HOURS pace it)
#   PACING    a JSON member each cycle's enqueue carries, e.g. '"pacing":{"limits":[...]}'
#   CALLGRIND_OUT  where to keep callgrind's whole profile, for callgrind_annotate (default:
#             deleted with the temporary folder)
#
# Prints the total per request, then the parts named at the end of this script: functions'
# inclusive instructions, per request, found by a piece of their (mangled) symbol. A part whose
# function was renamed or inlined away no longer matches and is left out of the list.
set -euo pipefail
cd "$(dirname "$0")/.."
WORKLOAD=${WORKLOAD:-enqueue}
COUNT=${COUNT:-3200}
CONNECTIONS=${CONNECTIONS:-32}
PORT=${PORT:-18383}
ALERTD_BIN=${ALERTD_BIN:-.build/release/alertd}
. scripts/bench/build-check.sh
describe_build "$ALERTD_BIN"
work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null
  [ -n "${CALLGRIND_OUT:-}" ] && [ -f "$work/callgrind.out" ] && cp "$work/callgrind.out" "$CALLGRIND_OUT"; rm -rf "$work"' EXIT

# valgrind 3.19 (bookworm) cannot read the DWARF 5 that Swift 6 writes: count a copy without it
# (function names come from the symbol table).
objcopy --strip-debug "$ALERTD_BIN" "$work/alertd"
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/callgrind.out" \
  "$work/alertd" serve --host 127.0.0.1 --port "$PORT" --store "${STORE:-sqlite:$work/alertd.sqlite}" --data-dir "$work" \
  --admin-token bench-admin-token --per-client-connection-limit 0 --log-level warning >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.2; done

python3 scripts/bench/requests.py "$PORT" "$WORKLOAD" 1000 "$CONNECTIONS" warm
callgrind_control --instr=on "$server" >/dev/null 2>&1
python3 scripts/bench/requests.py "$PORT" "$WORKLOAD" "$COUNT" "$CONNECTIONS" counted
callgrind_control --instr=off "$server" >/dev/null 2>&1
kill -INT "$server"
wait "$server" || true
server=

echo "== $WORKLOAD: $COUNT requests over $CONNECTIONS connections, $ALERTD_BIN; instructions per request:"
callgrind_annotate --inclusive=yes "$work/callgrind.out" 2>/dev/null | python3 -c '
import re, sys
count = int(sys.argv[1])
# Inclusive instructions of these functions (Swift symbols matched by a piece of their mangled name).
parts = [
    ("the whole process", "PROGRAM TOTALS"),
    ("HTTP: libmicrohttpd calls alertd (routing, auth, handler until it waits)", "microHTTPAccess"),
    ("  reading and checking an enqueue body", "EnqueueRequestV4item"),
    ("    checking the alert (rendering a draft on a miss)", "RenderedAlertsV5checkys6Result"),
    ("  a render that misses the cache: the alert drafted, localized and checked", "6render4type10parameters6locale0A4Spec"),
    ("  the spec encoded to JSON", "OrderedJSONEncoderV6encode"),
    ("  its ETag", "EntityTagO6strong3for"),
    ("SQLite writer: batches of writes, each a transaction", "WriteBatcherC10runBatches33_D17C9FFD974679C74B7D1DAFF05478F5LLyyFy4GRDB8DatabaseCYbcfU_ "),
    ("  one enqueue step", "SQLiteB5StoreV7enqueue_3now15seeingLiveItemsAA13EnqueueResultVAA7NewItemV_20FoundationEssentials4DateVSbtYaKFAH4GRDB8DatabaseCYbKcfU_ "),
    ("    loading the session live items", "StoreV4load7session5scope"),
    ("    inserting the row", "ItemRecordV9insertRow"),
    ("  commits", "sqlite3BtreeCommitPhaseOne"),
    ("WAL checkpoints (background)", "sqlite3WalCheckpoint"),
]
seen = {}
for line in sys.stdin:
    match = re.match(r"\s*([\d,]+) ", line)
    if not match:
        continue
    for label, piece in parts:
        if piece in line and label not in seen:
            seen[label] = int(match.group(1).replace(",", ""))
for label, _ in parts:
    if label in seen:
        print(f"{seen[label] / count:>12,.0f}  {label}")
' "$COUNT"
