#!/usr/bin/env bash
# The whole-server benchmark: builds Weir, runs the PostgreSQL ceiling script, starts target/weir-server.jar
# against the same PostgreSQL and runs the scenarios, then prints a table of figures with their ratios to the
# ceiling (or to the setup they are compared with) and writes them as JSON to target/bench/results.json.
#
# usage: bench/run.sh [--no-build] [options] [scenario ...]      (bench/run.sh --help lists the options)
#   CEILING=path/to/ceiling.sh bench/run.sh              everything, 20-25 minutes on 2 cores
#   CEILING=path/to/ceiling.sh bench/run.sh --quick      a smoke run with small sizes
#   bench/run.sh --no-ceiling drain latency             some scenarios, without the ceiling
# PostgreSQL is reached through PGHOST, PGPORT, PGUSER, PGPASSWORD (default 127.0.0.1:5432, postgres); the harness
# uses the database $BENCH_DATABASE (default weir_harness) and drops its schema weir first. Needs a JDK 17+
# (JAVA_HOME is used when set; jcmd must be beside its java), bash, and psql and pgbench for the ceiling script.
# The harness itself is Java, in src/bench/java (ADR 0015).
set -euo pipefail
cd "$(dirname "$0")/.."

build=true
args=()
for arg in "$@"; do
  case "$arg" in
    --no-build) build=false ;;
    *) args+=("$arg") ;;
  esac
done

if $build || [ ! -f target/bench.classpath ]; then
  # package builds the runnable jar and compiles the test sources, the harness among them, without running tests.
  ./mvnw -q -B -ntp package dependency:build-classpath -DskipTests \
    -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
fi

java=java
[ -z "${JAVA_HOME:-}" ] || java=$JAVA_HOME/bin/java
exec "$java" -cp "target/test-classes:$(cat target/bench.classpath)" dev.weir.bench.Bench "${args[@]}"
