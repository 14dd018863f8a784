#!/bin/sh
# The auto warmup rule of d6fcbc5, which ended it once the JIT compiler had been quiet for five one-second steps, measured on
# the default alternating A/A, interleaved in rounds of 6 pairs, alone on the guest:
#   q40 = --warmup-seconds auto:40 (the rule of d6fcbc5, reverted: compiler quiet for five steps; capped at 40 s)
#   f40 = --warmup-seconds 40      (a fixed 40 s: what auto:40 was under the old rule, which almost never settled)
#   q15 = --warmup-seconds auto:15 (the default: how often that rule ends it before its cap)
# Each arm's JVMs are judged by docs/perf/warmup-arms.py (warmup-quiet.txt).
set -u
JAR=${JAR:-perflab.jar}
PAIRS=${PAIRS:-6}
ROUNDS=${ROUNDS:-3}
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for arm in q40 f40 q15; do
    case $arm in
      q40) warm=auto:40 ;;
      f40) warm=40 ;;
      q15) warm=auto:15 ;;
    esac
    echo "== $arm round $r $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -jar "$JAR" calibrate --experiments 1 --pairs "$PAIRS" --warmup-seconds "$warm" \
        --out "warmup-quiet-$arm-$r.json" > "warmup-quiet-$arm-$r.txt" 2>&1
    echo "   done $(date -u +%H:%M:%S) rc $?"
  done
  r=$((r + 1))
done
