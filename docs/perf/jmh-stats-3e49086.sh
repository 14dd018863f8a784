#!/bin/sh
# Statistics hot paths before and after 3e49086 (t tails as the tail itself above t = 1, means refined with exact
# residuals, Welch and power df in shares), alternated, alone on the machine. BEFORE is a checkout of the same
# commit as AFTER with the four files of 3e49086 as they were before it:
#   git worktree add --detach $BEFORE HEAD && cd $BEFORE && git checkout 3e49086^ -- \
#     src/main/java/io/perflab/stats/{Sums,TTest,Distributions,Power}.java && ./mvnw -B -o -q -pl src test-compile
# AFTER has been built (./mvnw -B -q install -DskipTests). Both run on one dependency class path:
#   ./mvnw -B -o -q -pl src dependency:build-classpath -Dmdep.outputFile=$CP_FILE -Dmdep.includeScope=test
BEFORE=${BEFORE:?checkout with the old statistics files} AFTER=${AFTER:-.} CP=$(cat "${CP_FILE:?class path file}")
run() {
  java -cp "$1/src/target/test-classes:$1/src/target/classes:$CP" org.openjdk.jmh.Main "$2" $3 2>&1 \
    | grep -E "^Benchmark|^StatsBenchmark"
}
for round in 1 2 3; do
  for side in "$BEFORE" "$AFTER"; do
    echo "=== round $round: $side"
    run "$side" 'StatsBenchmark.(welch|compare)$' "-p size=100,10000,100000 -f 1 -wi 3 -i 5"
  done
done
for round in 1 2; do
  for side in "$BEFORE" "$AFTER"; do
    echo "=== round $round: $side"
    run "$side" 'StatsBenchmark.compare$' "-p size=100,10000 -f 3 -wi 5 -i 10"
  done
done
