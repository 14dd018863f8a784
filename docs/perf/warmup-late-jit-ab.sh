#!/bin/sh
# The meter's late compilation before and after the meter named each thread once, side by side: rounds of two
# docs/perf/warmup-late-jit.sh pairs (fixed 45 s warmup, -XX:+LogCompilation) with BEFORE, then two with AFTER,
# alone on the guest; each output ends with C2's task time in the 30 s before window 0 per JVM
# (warmup-late-jit-ab.txt).
#
#   BEFORE=before.jar AFTER=after.jar [ROUNDS=2] docs/perf/warmup-late-jit-ab.sh
set -eu
ROUNDS=${ROUNDS:-2}
here=$(dirname "$0")
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for arm in before after; do
    if [ "$arm" = before ]; then jar=$BEFORE; else jar=$AFTER; fi
    echo "== $arm round $r $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    JAR=$jar OUT=warmup-late-jit-$arm-$r PAIRS=2 "$here/warmup-late-jit.sh" > "warmup-late-jit-$arm-$r.txt"
  done
  r=$((r + 1))
done
