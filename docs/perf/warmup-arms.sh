#!/bin/sh
# Three arms of the default alternating A/A, interleaved in rounds, alone on the guest:
#   base  = the default (auto:15, the default trial flags)
#   cts   = the default flags + -XX:CompileThresholdScaling=0.1, auto:15
#   cts8  = the same flags, auto:8
# Each arm's JVMs are judged by docs/perf/warmup-arms.py (warmup-arms.txt).
set -u
JAR=${JAR:-perflab.jar}
PAIRS=${PAIRS:-6}
ROUNDS=${ROUNDS:-3}
FLAGS="-Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -Xbatch -XX:-UseDynamicNumberOfCompilerThreads"
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for arm in base cts cts8; do
    case $arm in
      base) extra=""; warm=auto:15 ;;
      cts) extra=" -XX:CompileThresholdScaling=0.1"; warm=auto:15 ;;
      cts8) extra=" -XX:CompileThresholdScaling=0.1"; warm=auto:8 ;;
    esac
    echo "== $arm round $r $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -jar "$JAR" calibrate --experiments 1 --pairs "$PAIRS" --jvm-args="$FLAGS$extra" --warmup-seconds "$warm" \
        --out "warmup-arms-$arm-$r.json" > "warmup-arms-$arm-$r.txt" 2>&1
    echo "   done $(date -u +%H:%M:%S) rc $?"
  done
  r=$((r + 1))
done
