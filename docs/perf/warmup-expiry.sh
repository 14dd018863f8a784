#!/bin/sh
# The default alternating A/A (auto:15 warmup) with two engines, interleaved in rounds of 6 pairs, alone on the guest:
#   base = the engine whose call-expiry task first runs one timeout (10 s) after the first call
#   sec  = the engine whose expiry task runs at least once a second while calls are pending
# Each arm's JVMs are judged by docs/perf/warmup-arms.py (warmup-expiry.txt).
set -u
BASE=${BASE:-base.jar}
SEC=${SEC:-new.jar}
PAIRS=${PAIRS:-6}
ROUNDS=${ROUNDS:-4}
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for arm in base sec; do
    case $arm in
      base) jar=$BASE ;;
      sec) jar=$SEC ;;
    esac
    echo "== $arm round $r $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -jar "$jar" calibrate --experiments 1 --pairs "$PAIRS" \
        --out "warmup-expiry-$arm-$r.json" > "warmup-expiry-$arm-$r.txt" 2>&1
    echo "   done $(date -u +%H:%M:%S) rc $?"
  done
  r=$((r + 1))
done
