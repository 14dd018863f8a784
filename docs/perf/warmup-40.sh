#!/bin/sh
# The default alternating A/A at two warmups, interleaved in rounds of 6 pairs, alone on the guest:
#   w40  = --warmup-seconds auto:40 (what the warmup caveat recommends for the steady-state figure)
#   w15  = the default, auto:15
# Each arm's JVMs are judged by docs/perf/warmup-arms.py (warmup-40.txt).
set -u
JAR=${JAR:-perflab.jar}
PAIRS=${PAIRS:-6}
ROUNDS=${ROUNDS:-2}
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for arm in w40 w15; do
    case $arm in
      w40) warm=auto:40 ;;
      w15) warm=auto:15 ;;
    esac
    echo "== $arm round $r $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -jar "$JAR" calibrate --experiments 1 --pairs "$PAIRS" --warmup-seconds "$warm" \
        --out "warmup-40-$arm-$r.json" > "warmup-40-$arm-$r.txt" 2>&1
    echo "   done $(date -u +%H:%M:%S) rc $?"
  done
  r=$((r + 1))
done
