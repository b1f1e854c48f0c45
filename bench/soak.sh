#!/usr/bin/env bash
# Soak: one Weir server under a steady stream of jobs for a long while, sampled at a fixed interval, to show that
# nothing grows that should stay flat: heap after a full GC, the server's threads, its database sessions and the
# permits it holds, and the dead row versions in weir.jobs. Not part of CI (see docs/reliability.md for a report).
#
# usage: bench/soak.sh [minutes=10] [rate=200] [interval=30]
#   rate      jobs submitted per second (in two batches a second): 45 % weir.noop, 45 % weir.sleep {"ms": 20},
#             10 % weir.fail {"times": 1} (fails once, then completes on its retry about a second later)
#   interval  seconds between samples
# Needs: target/weir-server.jar (./mvnw package), curl, python3, psql, and the JDK's jcmd; a PostgreSQL reached
# through the usual libpq variables (PGHOST, PGPORT, PGUSER; default 127.0.0.1:5432, postgres). It uses the
# database weir_soak, whose weir schema it drops first. HTTP port: SOAK_HTTP_PORT (default 9594).
set -euo pipefail
MINUTES=${1:-10}; RATE=${2:-200}; INTERVAL=${3:-30}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
PORT=${SOAK_HTTP_PORT:-9594}
# The API needs a user: this run's server gets a one-off admin password (kept if WEIR_ADMIN_PASSWORD is set).
export WEIR_ADMIN_PASSWORD="${WEIR_ADMIN_PASSWORD:-$(od -An -tx1 -N12 /dev/urandom | tr -d ' \n')}"
cd "$(dirname "$0")/.."
JAR=$PWD/target/weir-server.jar
[ -f "$JAR" ] || { echo "build first: ./mvnw package" >&2; exit 1; }
JCMD=${JAVA_HOME:+$JAVA_HOME/bin/}jcmd

psql -d postgres -qAtc "SELECT 1 FROM pg_database WHERE datname = 'weir_soak'" | grep -q 1 \
  || psql -d postgres -qc "CREATE DATABASE weir_soak"
psql -d weir_soak -qc "DROP SCHEMA IF EXISTS weir CASCADE" 2>/dev/null

run_dir=$(mktemp -d)
launcher=""
loader=""
cleanup() {
  [ -z "$loader" ] || kill "$loader" 2>/dev/null || true
  if [ -n "$launcher" ]; then
    kill "$launcher" 2>/dev/null || true
    wait "$launcher" 2>/dev/null || true
  fi
  rm -rf "$run_dir"
}
trap cleanup EXIT

(
  export WEIR_DB_URL="jdbc:postgresql://$PGHOST:$PGPORT/weir_soak" WEIR_DB_USER="$PGUSER"
  export HTTP_PORT=$PORT HTTPS_PORT=$((PORT + 1)) WEIR_DIAGNOSTICS_ENABLED=true WEIR_QUEUE_DEFAULT_MAX_WORKERS=16
  export WLP_JAR_EXTRACT_DIR="$run_dir/wlp"
  cd "$run_dir" && exec java -jar "$JAR" > "${SOAK_SERVER_LOG:-$run_dir/server.log}" 2>&1
) &
launcher=$!
for _ in $(seq 1 180); do
  curl -sf "localhost:$PORT/health/ready" >/dev/null 2>&1 && break
  sleep 1
done
curl -sf "localhost:$PORT/health/ready" >/dev/null || { echo "server did not become ready" >&2; exit 1; }
# The runnable jar's JVM only launches the server JVM: sample the child.
server=$(pgrep -P "$launcher" -f java | head -1 || true)
[ -n "$server" ] || server=$(pgrep -f "$run_dir/wlp" | head -1)

python3 - "$PORT" "$RATE" "$WEIR_ADMIN_PASSWORD" > "$run_dir/load.log" 2>&1 <<'PY' &
import base64, json, sys, time, urllib.request
port, rate = int(sys.argv[1]), int(sys.argv[2])
auth = "Basic " + base64.b64encode(("admin:" + sys.argv[3]).encode()).decode()
half = max(1, rate // 2)
mix = [{"kind": "weir.noop"}, {"kind": "weir.sleep", "args": {"ms": 20}}, {"kind": "weir.fail", "args": {"times": 1}}]
jobs = [mix[2] if i % 10 == 9 else mix[i % 2] for i in range(half)]  # 10 % fail once
# A batch holds at most 1000 jobs (413 above that): a half-second's jobs go in as many requests as that takes.
bodies = [json.dumps(jobs[i:i + 1000]).encode() for i in range(0, half, 1000)]
nxt = time.monotonic()
while True:
    for body in bodies:
        try:
            req = urllib.request.Request(f"http://localhost:{port}/api/jobs/batch", data=body,
                                         headers={"Content-Type": "application/json", "Authorization": auth})
            urllib.request.urlopen(req, timeout=10).read()
        except Exception as e:
            print("submit failed:", e, flush=True)
    nxt += 0.5
    time.sleep(max(0, nxt - time.monotonic()))
PY
loader=$!

sample() {
  "$JCMD" "$server" GC.run >/dev/null 2>&1 || true
  local heap threads sessions held backlog completed
  # G1 names the whole heap on one line, the generational collectors (Parallel, Serial) one line per generation.
  heap=$("$JCMD" "$server" GC.heap_info 2>/dev/null | sed -n 's/.*total [0-9]*K, used \([0-9]*\)K.*/\1/p' \
    | awk '{ sum += $1 } END { if (NR) print sum }')
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$server/status")
  sessions=$(psql -d weir_soak -qAtc "SELECT count(*) FROM pg_stat_activity WHERE datname = 'weir_soak' AND application_name LIKE 'weir%'")
  held=$(curl -sf -u "admin:$WEIR_ADMIN_PASSWORD" "localhost:$PORT/api/queues/default" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity']['inFlight'])")
  read -r backlog completed < <(psql -d weir_soak -qAtF ' ' -c "SELECT count(*) FILTER (WHERE state IN ('available', 'running', 'retryable', 'scheduled')), count(*) FILTER (WHERE state = 'completed') FROM weir.jobs")
  # Dead row versions in weir.jobs (pg_stat_user_tables; the statistics lag about a second): bounded when the table
  # is vacuumed, by the leader (ADR 0027) or autovacuum.
  dead=$(psql -d weir_soak -qAtc "SELECT n_dead_tup FROM pg_stat_user_tables WHERE schemaname = 'weir' AND relname = 'jobs'")
  printf '%6s %12s %8s %9s %6s %8s %10s %9s\n' "$1" "$((heap / 1024))" "$threads" "$sessions" "$held" "$backlog" "$completed" "$dead"
}

echo "== Weir soak: $MINUTES min at $RATE jobs/s, a sample every $INTERVAL s (server pid $server)"
printf '%6s %12s %8s %9s %6s %8s %10s %9s\n' "t(s)" "heap-MB(gc)" threads db-conns held backlog completed dead-rows
start=$(date +%s)
end=$((start + MINUTES * 60))
while [ "$(date +%s)" -lt "$end" ]; do
  sample "$(( $(date +%s) - start ))"
  sleep "$INTERVAL"
done
kill "$loader" 2>/dev/null || true
loader=""
# Let the backlog drain, then take the last sample: permits back to 0, nothing left outstanding.
for _ in $(seq 1 120); do
  [ "$(psql -d weir_soak -qAtc "SELECT count(*) FROM weir.jobs WHERE state IN ('available', 'running', 'retryable', 'scheduled')")" = 0 ] && break
  sleep 1
done
sample "end"
psql -d weir_soak -qAtc "SELECT 'states: ' || string_agg(state || ' ' || n, ', ') FROM (SELECT state, count(*) AS n FROM weir.jobs GROUP BY state ORDER BY state) s"
fails=$(grep -c "submit failed" "$run_dir/load.log" || true)
echo "submissions refused or failed: $fails"
