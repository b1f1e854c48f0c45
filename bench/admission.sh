#!/usr/bin/env bash
# Admission benchmark: what elastic admission costs. Submits and drains the same work on one Weir server twice, side by
# side in one run: once with the queue unbounded, once with weir.queue.default.max-pending set so large that nothing
# is refused, so the difference is the price of taking and judging admission slots (ADR 0011).
#
# usage: bench/admission.sh [jobs=20000] [workers=16] [rounds=3] [per-request=10] [submitters=8]
#   Each round submits `jobs` weir.noop jobs, `per-request` to a POST (/api/jobs for 1, /api/jobs/batch above), from
#   `submitters` concurrent connections while the queue runs, and waits until they are all finished. It reports
#   jobs/s from the first submission to the last finish, the submission rate alone, and after the last round the dead
#   tuples left in weir.jobs and weir.admission_slots (pg_stat_user_tables). The first round warms the JVM up.
#   MAX_PENDING=n   the bound of the bounded run (default: 4 × jobs, never reached)
# Needs: target/weir-server.jar (./mvnw package), curl, python3, psql, and a PostgreSQL reached through the usual libpq
# variables (PGHOST, PGPORT, PGUSER; default 127.0.0.1:5432, postgres). It uses the database weir_bench, whose weir
# schema it drops before each server starts.
set -euo pipefail
JOBS=${1:-20000}; WORKERS=${2:-16}; ROUNDS=${3:-3}; PER_REQUEST=${4:-10}; SUBMITTERS=${5:-8}
MAX_PENDING=${MAX_PENDING:-$((JOBS * 4))}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
PORT=${BENCH_HTTP_PORT:-9280}
cd "$(dirname "$0")/.."
JAR=$PWD/target/weir-server.jar
[ -f "$JAR" ] || { echo "build first: ./mvnw package" >&2; exit 1; }

psql -d postgres -qAtc "SELECT 1 FROM pg_database WHERE datname = 'weir_bench'" | grep -q 1 \
  || psql -d postgres -qc "CREATE DATABASE weir_bench"

outstanding() {
  psql -d weir_bench -qAtc "SELECT count(*) FROM weir.jobs WHERE state IN ('available', 'running', 'retryable', 'scheduled')"
}

server=""
run_dir=""
stop_server() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
  fi
  [ -z "$run_dir" ] || rm -rf "$run_dir"
}
trap stop_server EXIT

# Submits JOBS jobs from SUBMITTERS keep-alive connections; prints the seconds it took and the number of refusals.
submit() {
  python3 - "$PORT" "$JOBS" "$PER_REQUEST" "$SUBMITTERS" <<'PY'
import http.client, json, sys, threading, time
port, jobs, per, threads = (int(a) for a in sys.argv[1:5])
path = "/api/jobs" if per == 1 else "/api/jobs/batch"
one = {"kind": "weir.noop"}
body = json.dumps(one if per == 1 else [one] * per)
requests = jobs // per
refused = [0]
lock = threading.Lock()
def run(n):
    c = http.client.HTTPConnection("localhost", port)
    for _ in range(n):
        c.request("POST", path, body, {"Content-Type": "application/json"})
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

measure() {
  local mode=$1
  psql -d weir_bench -qc "DROP SCHEMA IF EXISTS weir CASCADE" 2>/dev/null
  psql -d weir_bench -qAtc "SELECT pg_stat_reset()" >/dev/null
  run_dir=$(mktemp -d)
  (
    export WEIR_DB_URL="jdbc:postgresql://$PGHOST:$PGPORT/weir_bench" WEIR_DB_USER="$PGUSER"
    export HTTP_PORT=$PORT HTTPS_PORT=$((PORT + 1)) WEIR_DIAGNOSTICS_ENABLED=true
    export WEIR_QUEUE_DEFAULT_MAX_WORKERS=$WORKERS
    [ "$mode" = unbounded ] || export WEIR_QUEUE_DEFAULT_MAX_PENDING=$MAX_PENDING
    cd "$run_dir" && exec java -jar "$JAR" > "${BENCH_SERVER_LOG:-$run_dir/server.log}" 2>&1
  ) &
  server=$!
  for _ in $(seq 1 120); do
    curl -sf "localhost:$PORT/health/ready" >/dev/null 2>&1 && break
    sleep 1
  done
  curl -sf "localhost:$PORT/health/ready" >/dev/null || { echo "server did not become ready" >&2; exit 1; }

  echo "== $mode$([ "$mode" = unbounded ] || echo " (max-pending $MAX_PENDING)"): $JOBS no-op jobs, $PER_REQUEST per request from $SUBMITTERS connections, $WORKERS workers, $ROUNDS rounds"
  for round in $(seq 1 "$ROUNDS"); do
    first=$(psql -d weir_bench -qAtc "SELECT coalesce(max(id), 0) + 1 FROM weir.jobs")
    start=$(date +%s.%N)
    read -r submit_s refused < <(submit)
    while [ "$(outstanding)" != "0" ]; do sleep 0.2; done
    psql -d weir_bench -qAtc "
      SELECT format('$mode round $round: %s jobs submitted and finished in %s s = %s jobs/s (submitting alone: %s jobs/s, $refused refused)',
                    count(*), round(extract(epoch FROM max(finalized_at) - to_timestamp($start))::numeric, 2),
                    round(count(*) / extract(epoch FROM max(finalized_at) - to_timestamp($start))::numeric),
                    round(count(*) / $submit_s))
      FROM weir.jobs WHERE id >= $first"
  done
  sleep 2   # let the statistics of the last transactions arrive
  psql -d weir_bench -qAtc "
    SELECT format('$mode: %s: %s dead tuples, %s updates (%s HOT), %s deletes', relname, n_dead_tup, n_tup_upd, n_tup_hot_upd, n_tup_del)
    FROM pg_stat_user_tables WHERE schemaname = 'weir' AND relname IN ('jobs', 'admission_slots') ORDER BY relname"
  stop_server
}

for mode in ${MODES:-unbounded bounded}; do
  measure "$mode"
done
