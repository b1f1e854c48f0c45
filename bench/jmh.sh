#!/usr/bin/env bash
# Microbenchmarks of the hot in-memory pieces (src/jmh/java): builds the test classes, where the JMH harness is
# generated, and runs JMH on them in this JVM's java.
#
# usage: bench/jmh.sh [JMH options] [benchmark regexp ...]
#   bench/jmh.sh                      every benchmark, with the short defaults the classes declare
#                                     (1 fork, 3 warm-up and 5 measured iterations of 1 s)
#   bench/jmh.sh Overflow             only the benchmarks whose name matches
#   bench/jmh.sh -f 3 -i 10 Overflow  longer, for a figure to quote
#   bench/jmh.sh -l | -h              list the benchmarks | JMH's own options
# Results are printed and written as JSON to target/jmh.json (unless -rf or -rff is given). Needs a JDK 17+;
# JAVA_HOME is used when set.
set -euo pipefail
cd "$(dirname "$0")/.."

./mvnw -q -B -ntp test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/jmh.classpath -Dmdep.includeScope=test

result=(-rf json -rff target/jmh.json)
for arg in "$@"; do
  case "$arg" in -rf | -rff) result=() ;; esac
done

java=java
[ -z "${JAVA_HOME:-}" ] || java=$JAVA_HOME/bin/java
exec "$java" -cp "target/test-classes:target/classes:$(cat target/jmh.classpath)" org.openjdk.jmh.Main \
  "${result[@]}" "$@"
