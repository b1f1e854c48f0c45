#!/usr/bin/env bash
# Drain benchmark: how fast one Weir instance empties a backlog of no-op jobs, next to what PostgreSQL
# itself can do on the same server (the claim+complete cells of the ceiling script, run just before).
#
# usage: bench/drain.sh [jobs=20000] [workers=16] [rounds=3]
# Needs: target/weir-server.jar (./mvnw package), psql and pgbench, and a PostgreSQL reached through the usual
# libpq variables (PGHOST, PGPORT, PGUSER; default 127.0.0.1:5432, postgres). It uses the database weir_bench.
# Set CEILING=path/to/ceiling.sh to run the PostgreSQL ceiling in the same run (recommended).
set -euo pipefail
JOBS=${1:-20000}; WORKERS=${2:-16}; ROUNDS=${3:-3}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
PORT=${BENCH_HTTP_PORT:-9280}
cd "$(dirname "$0")/.."
JAR=target/weir-server.jar
[ -f "$JAR" ] || { echo "build first: ./mvnw package" >&2; exit 1; }

if [ -n "${CEILING:-}" ]; then
  echo "== PostgreSQL ceiling (16 clients, 15 s per cell)"
  bash "$CEILING" 16 15 | tee /tmp/weir-bench-ceiling.$$
fi

psql -d postgres -qAtc "SELECT 1 FROM pg_database WHERE datname = 'weir_bench'" | grep -q 1 \
  || psql -d postgres -qc "CREATE DATABASE weir_bench"
psql -d weir_bench -qc "DROP SCHEMA IF EXISTS weir CASCADE"

run_dir=$(mktemp -d)
export WEIR_DB_URL="jdbc:postgresql://$PGHOST:$PGPORT/weir_bench" WEIR_DB_USER="$PGUSER"
export HTTP_PORT=$PORT HTTPS_PORT=$((PORT + 1)) WEIR_DIAGNOSTICS_ENABLED=true
export WEIR_QUEUE_DEFAULT_MAX_WORKERS=$WORKERS
(cd "$run_dir" && exec java -jar "$OLDPWD/$JAR" > "${BENCH_SERVER_LOG:-$run_dir/server.log}" 2>&1) &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$run_dir"' EXIT
for _ in $(seq 1 120); do
  curl -sf "localhost:$PORT/health/ready" >/dev/null 2>&1 && break
  sleep 1
done
curl -sf "localhost:$PORT/health/ready" >/dev/null || { echo "server did not become ready" >&2; tail -50 "$run_dir/server.log"; exit 1; }

batch=$(python3 -c "import json; print(json.dumps([{'kind': 'weir.noop'}] * 1000))")
outstanding() {
  psql -d weir_bench -qAtc "SELECT count(*) FROM weir.jobs WHERE state IN ('available', 'running', 'retryable', 'scheduled')"
}
paused() { curl -sf "localhost:$PORT/api/queues/default" | grep -q '"paused":true'; }

echo "== Weir drain: $JOBS no-op jobs, $WORKERS workers, $ROUNDS rounds (the first warms the JVM up)"
for round in $(seq 1 "$ROUNDS"); do
  curl -sf -XPOST "localhost:$PORT/api/queues/default/pause"
  until paused; do sleep 0.1; done
  sleep 1   # one maintenance tick: every dispatcher has seen the pause
  for _ in $(seq 1 $((JOBS / 1000))); do
    curl -sf -o /dev/null -XPOST "localhost:$PORT/api/jobs/batch" -H 'Content-Type: application/json' -d "$batch"
  done
  start=$(date +%s.%N)
  curl -sf -XPOST "localhost:$PORT/api/queues/default/resume"
  while [ "$(outstanding)" != "0" ]; do sleep 0.05; done
  end=$(date +%s.%N)
  python3 -c "print('round $round: drained $JOBS in %.2f s = %.0f jobs/s' % ($end - $start, $JOBS / ($end - $start)))"
done
