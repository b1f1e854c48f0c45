#!/usr/bin/env bash
# Drain benchmark: how fast one Weir instance empties a backlog of no-op jobs, next to what PostgreSQL
# itself can do on the same server (the claim+complete cells of the ceiling script, run first when asked).
#
# usage: bench/drain.sh [jobs=20000] [workers=16] [rounds=3]
#   CEILING=path/to/ceiling.sh   run the PostgreSQL ceiling first, in the same run (recommended)
#   MODES="hard-reserved weighted"   the concurrency modes to measure, one server each, with the same total
#                                    workers (weighted: weir.global-max-workers = workers, min-workers 0)
#   WEIR_JAR=path/to/weir-server.jar  another build to measure (an earlier commit, say); default target/
#   WARMUP_SECONDS=60                 unmeasured drains first, for at least this long (0: none), so that the
#                                     measured rounds do not measure the JIT compiler at work
#   PAIRED_CELL=10                    with CEILING: right after each measured round, the ceiling's claim+complete
#                                     cell with this k, run again for PAIRED_SECONDS (10) from the ceiling script's
#                                     own files, and the round's ratio to it; the median of those ratios at the end.
#                                     On a machine whose speed drifts within minutes, a ratio to a cell measured
#                                     seconds away says more than one to a cell measured before the warm-up
# Needs: target/weir-server.jar (./mvnw package), curl, python3, psql (and pgbench for the ceiling), and a
# PostgreSQL reached through the usual libpq variables (PGHOST, PGPORT, PGUSER; default 127.0.0.1:5432,
# postgres). It uses the database weir_bench. Each round starts from an empty weir.jobs, and its rate comes from
# the jobs' own timestamps: first start to last finish.
set -euo pipefail
JOBS=${1:-20000}; WORKERS=${2:-16}; ROUNDS=${3:-3}
WARMUP_SECONDS=${WARMUP_SECONDS:-60}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
PORT=${BENCH_HTTP_PORT:-9280}
# The API needs a user: this run's server gets a one-off admin password (kept if WEIR_ADMIN_PASSWORD is set).
export WEIR_ADMIN_PASSWORD="${WEIR_ADMIN_PASSWORD:-$(od -An -tx1 -N12 /dev/urandom | tr -d ' \n')}"
cd "$(dirname "$0")/.."
JAR=${WEIR_JAR:-$PWD/target/weir-server.jar}
[ -f "$JAR" ] || { echo "build first: ./mvnw package" >&2; exit 1; }

if [ -n "${CEILING:-}" ]; then
  echo "== PostgreSQL ceiling (16 clients, 15 s per cell)"
  bash "$CEILING" 16 15
fi
if [ -n "${PAIRED_CELL:-}" ] && [ -z "${CEILING:-}" ]; then
  echo "PAIRED_CELL needs CEILING: the cell is run from the ceiling script's own files" >&2
  exit 1
fi
PAIRED_SECONDS=${PAIRED_SECONDS:-10}

# One claim+complete cell of the ceiling, as its script runs it (the same files, 16 clients, its preload size for
# k), in its database weir_ceiling (whose table the ceiling run above created); prints jobs/s.
paired_cell() {
  local k=$1 dir
  dir=$(cd "$(dirname "$CEILING")" && pwd)
  psql -d weir_ceiling -q -v n=$(( k * 40000 < 2000000 ? k * 40000 : 2000000 )) -f "$dir/preload.sql" >/dev/null 2>&1
  pgbench -d weir_ceiling -n -f "$dir/claim_complete.sql" -D k="$k" -c 16 -j 2 -T "$PAIRED_SECONDS" >/dev/null 2>&1
  echo $(( $(psql -d weir_ceiling -qAtc "SELECT count(*) FROM ceiling_jobs WHERE state = 2") / PAIRED_SECONDS ))
}
ratios=()

psql -d postgres -qAtc "SELECT 1 FROM pg_database WHERE datname = 'weir_bench'" | grep -q 1 \
  || psql -d postgres -qc "CREATE DATABASE weir_bench"

batch=$(python3 -c "import json; print(json.dumps([{'kind': 'weir.noop'}] * 1000))")
outstanding() {
  psql -d weir_bench -qAtc "SELECT count(*) FROM weir.jobs WHERE state IN ('available', 'running', 'retryable', 'scheduled')"
}
paused() { curl -sf -u "admin:$WEIR_ADMIN_PASSWORD" "localhost:$PORT/api/queues/default" | grep -q '"paused":true'; }

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

# Submits $JOBS no-op jobs to the paused queue default, resumes it and waits until none is outstanding; sets $first.
drain_once() {
  curl -sf -XPOST -u "admin:$WEIR_ADMIN_PASSWORD" "localhost:$PORT/api/queues/default/pause"
  until paused; do sleep 0.1; done
  # Each round starts from an empty table, as run.sh's drains and the ceiling's claim cells (a freshly loaded,
  # vacuumed table) do: otherwise every round drains a bigger table than the last, and Weir's vacuum of it, which
  # runs during the drains, takes longer each round.
  psql -d weir_bench -qc "TRUNCATE weir.jobs"
  first=$(psql -d weir_bench -qAtc "SELECT coalesce(max(id), 0) + 1 FROM weir.jobs")
  for _ in $(seq 1 $((JOBS / 1000))); do
    curl -sf -o /dev/null -XPOST -u "admin:$WEIR_ADMIN_PASSWORD" "localhost:$PORT/api/jobs/batch" -H 'Content-Type: application/json' -d "$batch"
  done
  curl -sf -XPOST -u "admin:$WEIR_ADMIN_PASSWORD" "localhost:$PORT/api/queues/default/resume"
  # Poll slowly: the rate comes from the jobs' timestamps, so polling neither adds to it nor takes much CPU
  # from the server being measured.
  while [ "$(outstanding)" != "0" ]; do sleep 0.5; done
}

measure() {
  local mode=$1
  psql -d weir_bench -qc "DROP SCHEMA IF EXISTS weir CASCADE" 2>/dev/null
  run_dir=$(mktemp -d)
  (
    export WEIR_DB_URL="jdbc:postgresql://$PGHOST:$PGPORT/weir_bench" WEIR_DB_USER="$PGUSER"
    export HTTP_PORT=$PORT HTTPS_PORT=$((PORT + 1)) WEIR_DIAGNOSTICS_ENABLED=true
    if [ "$mode" = weighted ]; then
      export WEIR_GLOBAL_MAX_WORKERS=$WORKERS
    else
      export WEIR_QUEUE_DEFAULT_MAX_WORKERS=$WORKERS
    fi
    cd "$run_dir" && exec java -jar "$JAR" > "${BENCH_SERVER_LOG:-$run_dir/server.log}" 2>&1
  ) &
  server=$!
  for _ in $(seq 1 120); do
    curl -sf "localhost:$PORT/health/ready" >/dev/null 2>&1 && break
    sleep 1
  done
  curl -sf "localhost:$PORT/health/ready" >/dev/null || { echo "server did not become ready" >&2; exit 1; }

  echo "== Weir drain, $mode: $JOBS no-op jobs, $WORKERS workers, $ROUNDS rounds after ${WARMUP_SECONDS} s of warm-up"
  # Unmeasured drains first: a fresh server's JIT compiler keeps a core busy for its first tens of seconds.
  local warm_until=$((SECONDS + WARMUP_SECONDS)) warmups=0
  while [ "$SECONDS" -lt "$warm_until" ]; do
    drain_once
    warmups=$((warmups + 1))
  done
  [ "$warmups" = 0 ] || echo "$mode: $warmups warm-up drains"
  for round in $(seq 1 "$ROUNDS"); do
    drain_once
    psql -d weir_bench -qAtc "
      SELECT format('$mode round $round: drained %s jobs in %s s = %s jobs/s', count(*),
                    round(extract(epoch FROM max(finalized_at) - min(attempted_at))::numeric, 2),
                    round(count(*) / extract(epoch FROM max(finalized_at) - min(attempted_at))::numeric))
      FROM weir.jobs WHERE id >= $first"
    # Jobs claimed together share attempted_at (the claim transaction's time): the mean claim batch.
    psql -d weir_bench -qAtc "
      SELECT format('$mode round $round: %s jobs per claim, %s per outcome batch', round(count(*)::numeric / count(DISTINCT attempted_at), 1),
                    round(count(*)::numeric / count(DISTINCT finalized_at), 1))
      FROM weir.jobs WHERE id >= $first"
    if [ -n "${PAIRED_CELL:-}" ]; then
      rate=$(psql -d weir_bench -qAtc "
        SELECT round(count(*) / extract(epoch FROM max(finalized_at) - min(attempted_at))::numeric)
        FROM weir.jobs WHERE id >= $first")
      cell=$(paired_cell "$PAIRED_CELL")
      ratio=$(python3 -c "print(f'{$rate / $cell:.2f}')")
      ratios+=("$ratio")
      echo "$mode round $round: claim+complete k=$PAIRED_CELL right after it $cell jobs/s, ratio $ratio"
    fi
  done
  if [ "${#ratios[@]}" -gt 0 ]; then
    echo "$mode: ratios to the paired k=$PAIRED_CELL cells ${ratios[*]}, median" \
      "$(python3 -c "import statistics, sys; print(f'{statistics.median(map(float, sys.argv[1:])):.2f}')" "${ratios[@]}")"
    ratios=()
  fi
  stop_server
}

for mode in ${MODES:-hard-reserved}; do
  measure "$mode"
done
