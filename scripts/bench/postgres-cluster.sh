# Sourced by the PostgreSQL benchmarks (bench-postgres.sh, bench-postgres-statements.sh): a
# throwaway PostgreSQL cluster in a temporary folder ($work), on 127.0.0.1 and a free port
# ($PGPORT), default durability settings. At exit the processes in $servers are ended, the
# cluster stopped, the folder deleted.
#
#   start_cluster [line ...]   initdb and start; each line is appended to postgresql.conf first
#   psql ...                   psql as postgres on the cluster
#   start_alertd name port     alertd on database `alertd` (which the caller creates), data in
#                              $work/name, log in $work/name.log; returns once it is ready
#
# Needs PG_BIN; start_alertd also ALERTD_BIN, POOL (--store-pool-size) and ADMIN.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# PostgreSQL's programs refuse to run as root: run them as `postgres` when we are root.
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

work=$(mktemp -d)
chmod 755 "$work"
mkdir -m 700 "$work/data"
[ "$(id -u)" = 0 ] && chown postgres:postgres "$work/data"
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  if [ -f "$work/data/postmaster.pid" ]; then as_postgres "$PG_BIN/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

start_cluster() {
  PGPORT=$(free_port)
  as_postgres "$PG_BIN/initdb" -D "$work/data" -U postgres --auth=trust --encoding=UTF8 --no-locale >"$work/initdb.log" 2>&1
  {
    echo "listen_addresses = '127.0.0.1'"
    echo "port = $PGPORT"
    echo "unix_socket_directories = '$work/data'"
    echo "max_connections = 200"
    for line in "$@"; do echo "$line"; done
  } >>"$work/data/postgresql.conf"
  as_postgres "$PG_BIN/pg_ctl" -D "$work/data" -l "$work/data/server.log" -w start >/dev/null
}

psql() { "$PG_BIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -X -q "$@"; }

start_alertd() {  # name port (request lines off: the figures measure the store, not the log)
  mkdir -p "$work/$1"
  "$ALERTD_BIN" serve --host 127.0.0.1 --port "$2" --store "postgres://postgres@127.0.0.1:$PGPORT/alertd?sslmode=disable" \
    --store-pool-size "$POOL" --data-dir "$work/$1" --admin-token "$ADMIN" --session-secret bench-secret --log-level warning \
    >"$work/$1.log" 2>&1 &
  servers+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$2/readyz" >/dev/null && return; sleep 0.1; done
  echo "alertd $1 did not become ready:"; cat "$work/$1.log"; exit 1
}
