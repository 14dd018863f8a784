#!/bin/sh
# The default alternating A/A (auto:15 warmup) with and without Netty's leak detector in the trial JVMs, interleaved in
# rounds of 6 pairs, alone on the guest:
#   simple = the trial JVMs' default flags (Netty's default leak detection: SIMPLE, one buffer in 128 tracked)
#   off    = the same flags and -Dio.netty.leakDetection.level=disabled
# Each arm's JVMs are judged by docs/perf/warmup-arms.py (warmup-leak.txt).
set -u
JAR=${JAR:-perflab.jar}
PAIRS=${PAIRS:-6}
ROUNDS=${ROUNDS:-4}
FLAGS="-Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -Xbatch -XX:-UseDynamicNumberOfCompilerThreads"
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for arm in simple off; do
    case $arm in
      simple) flags=$FLAGS ;;
      off) flags="$FLAGS -Dio.netty.leakDetection.level=disabled" ;;
    esac
    echo "== $arm round $r $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -jar "$JAR" calibrate --experiments 1 --pairs "$PAIRS" --jvm-args "$flags" \
        --out "warmup-leak-$arm-$r.json" > "warmup-leak-$arm-$r.txt" 2>&1
    echo "   done $(date -u +%H:%M:%S) rc $?"
  done
  r=$((r + 1))
done
