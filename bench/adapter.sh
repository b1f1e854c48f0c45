#!/usr/bin/env bash
# Weir's adapter for the cross-system PostgreSQL queue benchmark: a long-running process that starts Weir's runnable
# jar against DATABASE_URL, submits PRODUCER_RATE weir.sleep jobs of JOB_WORK_MS per second through the REST API to
# one queue of WORKER_COUNT workers, and writes a JSON line to standard output every SAMPLE_EVERY_S seconds (a
# descriptor line first). Everything else goes to standard error. Stop it with SIGINT or SIGTERM; it stops Weir.
#
# usage: DATABASE_URL=postgres://user:password@host:5432/db PRODUCER_RATE=500 WORKER_COUNT=16 JOB_WORK_MS=5 \
#          SAMPLE_EVERY_S=1 bench/adapter.sh [--no-build]
#   WEIR_ADAPTER_HTTP_PORT   the server's HTTP port (9690; HTTPS is the next one)
#   WEIR_SERVER_JAR          the runnable jar (target/weir-server.jar)
# bench/README.md describes each output field. Needs a JDK 17+ (JAVA_HOME is used when set).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != "--no-build" ] || [ ! -f target/bench.classpath ]; then
  ./mvnw -q -B -ntp package dependency:build-classpath -DskipTests \
    -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >&2
fi

java=java
[ -z "${JAVA_HOME:-}" ] || java=$JAVA_HOME/bin/java
exec "$java" -cp "target/test-classes:$(cat target/bench.classpath)" dev.weir.bench.CrossSystemAdapter
