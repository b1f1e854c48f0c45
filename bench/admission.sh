#!/usr/bin/env bash
# Admission benchmark: what elastic admission costs. Two Weir servers run side by side in one run, each on its own
# database: one with the queue unbounded, one with weir.queue.default.max-pending so large that nothing is refused.
# Rounds alternate between them, so the difference is the price of taking and judging admission slots (ADR 0011).
#
# usage: bench/admission.sh [jobs=20000] [workers=16] [rounds=3] [per-request=10] [submitters=8]
#   Each round submits `jobs` weir.noop jobs, `per-request` to a POST (/api/jobs for 1, /api/jobs/batch above), from
#   `submitters` concurrent connections while the queue runs, and waits until they are all finished. It reports
#   jobs/s from the first submission to the last finish, the submission rate alone, and after the last round the dead
#   tuples left in weir.jobs and weir.admission_slots (pg_stat_user_tables). The first round warms the JVM up.
#   MAX_PENDING=n   the bound of the bounded run (default: 4 × jobs, never reached)
#   WEIR_JAR=path/to/weir-server.jar  another build to measure (an earlier commit, say); default target/
# Needs: target/weir-server.jar (./mvnw package), curl, python3, psql, and a PostgreSQL reached through the usual libpq
# variables (PGHOST, PGPORT, PGUSER; default 127.0.0.1:5432, postgres). It uses the database BENCH_DB (default
# weir_bench_admission, apart from drain.sh's) and BENCH_DB_bounded, whose weir schemas it drops first, and HTTP
# ports BENCH_HTTP_PORT (default 9296) and the one two above it.
set -euo pipefail
JOBS=${1:-20000}; WORKERS=${2:-16}; ROUNDS=${3:-3}; PER_REQUEST=${4:-10}; SUBMITTERS=${5:-8}
MAX_PENDING=${MAX_PENDING:-$((JOBS * 4))}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
PORT=${BENCH_HTTP_PORT:-9296}
# The API needs a user: this run's servers get a one-off admin password (kept if WEIR_ADMIN_PASSWORD is set).
export WEIR_ADMIN_PASSWORD="${WEIR_ADMIN_PASSWORD:-$(od -An -tx1 -N12 /dev/urandom | tr -d ' \n')}"
DB=${BENCH_DB:-weir_bench_admission}
cd "$(dirname "$0")/.."
JAR=${WEIR_JAR:-$PWD/target/weir-server.jar}
[ -f "$JAR" ] || { echo "build first: ./mvnw package" >&2; exit 1; }


outstanding() {
  psql -d "$1" -qAtc "SELECT count(*) FROM weir.jobs WHERE state IN ('available', 'running', 'retryable', 'scheduled')"
}

servers=()
run_dirs=()
stop_servers() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${servers[@]}"; do wait "$pid" 2>/dev/null || true; done
  servers=()
  for d in "${run_dirs[@]}"; do rm -rf "$d"; done
  run_dirs=()
}
trap stop_servers EXIT

# Submits JOBS jobs to the server on port $1 from SUBMITTERS keep-alive connections; prints the seconds it took and
# the number of refusals.
submit() {
  python3 - "$1" "$JOBS" "$PER_REQUEST" "$SUBMITTERS" <<'PY'
import base64, http.client, json, os, sys, threading, time
port, jobs, per, threads = (int(a) for a in sys.argv[1:5])
auth = "Basic " + base64.b64encode(("admin:" + os.environ["WEIR_ADMIN_PASSWORD"]).encode()).decode()
path = "/api/jobs" if per == 1 else "/api/jobs/batch"
one = {"kind": "weir.noop"}
body = json.dumps(one if per == 1 else [one] * per)
requests = jobs // per
refused = [0]
lock = threading.Lock()
def run(n):
    c = http.client.HTTPConnection("localhost", port)
    for _ in range(n):
        c.request("POST", path, body, {"Content-Type": "application/json", "Authorization": auth})
        r = c.getresponse(); r.read()
        if r.status == 429:
            with lock: refused[0] += 1
        elif r.status != 201:
            raise SystemExit("unexpected %d" % r.status)
began = time.time()
ts = [threading.Thread(target=run, args=(requests // threads + (1 if i < requests % threads else 0),)) for i in range(threads)]
for t in ts: t.start()
for t in ts: t.join()
print("%.3f %d" % (time.time() - began, refused[0]))
PY
}

# Starts a server for a mode: its own database (the weir schema dropped first) and port.
start_server() {
  local mode=$1 db=$2 port=$3
  psql -d postgres -qAtc "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1 \
    || psql -d postgres -qc "CREATE DATABASE $db"
  if curl -s -o /dev/null "localhost:$port/"; then
    echo "port $port is taken: set BENCH_HTTP_PORT" >&2; exit 1
  fi
  psql -d "$db" -qc "DROP SCHEMA IF EXISTS weir CASCADE" 2>/dev/null
  psql -d "$db" -qAtc "SELECT pg_stat_reset()" >/dev/null
  local dir
  dir=$(mktemp -d)
  run_dirs+=("$dir")
  (
    export WEIR_DB_URL="jdbc:postgresql://$PGHOST:$PGPORT/$db" WEIR_DB_USER="$PGUSER"
    export HTTP_PORT=$port HTTPS_PORT=$((port + 1)) WEIR_DIAGNOSTICS_ENABLED=true
    export WEIR_QUEUE_DEFAULT_MAX_WORKERS=$WORKERS
    [ "$mode" = unbounded ] || export WEIR_QUEUE_DEFAULT_MAX_PENDING=$MAX_PENDING
    cd "$dir" && exec java -jar "$JAR" > "$dir/server.log" 2>&1
  ) &
  servers+=($!)
}

await_ready() {
  for _ in $(seq 1 180); do
    curl -sf "localhost:$1/health/ready" >/dev/null 2>&1 && return 0
    sleep 1
  done
  echo "the server on port $1 did not become ready" >&2; exit 1
}

round() {
  local mode=$1 db=$2 port=$3 n=$4
  local first start submit_s refused
  first=$(psql -d "$db" -qAtc "SELECT coalesce(max(id), 0) + 1 FROM weir.jobs")
  start=$(date +%s.%N)
  read -r submit_s refused < <(submit "$port")
  while [ "$(outstanding "$db")" != "0" ]; do sleep 0.2; done
  psql -d "$db" -qAtc "
    SELECT format('round %s %-9s: %s jobs submitted and finished in %s s = %s jobs/s (submitting alone: %s jobs/s, $refused refused)',
                  $n, '$mode', count(*), round(extract(epoch FROM max(finalized_at) - to_timestamp($start))::numeric, 2),
                  round(count(*) / extract(epoch FROM max(finalized_at) - to_timestamp($start))::numeric),
                  round(count(*) / $submit_s))
    FROM weir.jobs WHERE id >= $first"
}

# Both servers run side by side, each on its own database; the rounds alternate between them, so a machine that is
# busier at one moment than another slows both alike.
start_server unbounded "$DB" "$PORT"
start_server bounded "${DB}_bounded" $((PORT + 2))
await_ready "$PORT"
await_ready $((PORT + 2))
echo "== $JOBS no-op jobs per round, $PER_REQUEST per request from $SUBMITTERS connections, $WORKERS workers; bounded: max-pending $MAX_PENDING; round 1 warms up"
for n in $(seq 1 "$ROUNDS"); do
  round unbounded "$DB" "$PORT" "$n"
  round bounded "${DB}_bounded" $((PORT + 2)) "$n"
done
sleep 2   # let the statistics of the last transactions arrive
for db in "$DB" "${DB}_bounded"; do
  psql -d "$db" -qAtc "
    SELECT format('$db: %s: %s dead tuples, %s updates (%s HOT), %s deletes', relname, n_dead_tup, n_tup_upd, n_tup_hot_upd, n_tup_del)
    FROM pg_stat_user_tables WHERE schemaname = 'weir' AND relname IN ('jobs', 'admission_slots') ORDER BY relname"
done
