#!/bin/sh
# Does C2 alone (-XX:-TieredCompilation) bring a trial JVM to a steady state within the default 15 s warmup?
# The default alternating A/A, interleaved in rounds of 6 pairs, alone on the guest:
#   tier = the default trial flags
#   c2   = the default trial flags and -XX:-TieredCompilation
# Each arm's JVMs are judged by docs/perf/warmup-arms.py (warmup-c2only.txt).
set -u
JAR=${JAR:-perflab.jar}
PAIRS=${PAIRS:-6}
ROUNDS=${ROUNDS:-3}
BASE="-Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -Xbatch -XX:-UseDynamicNumberOfCompilerThreads"
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for arm in tier c2; do
    case $arm in
      tier) flags="$BASE" ;;
      c2) flags="$BASE -XX:-TieredCompilation" ;;
    esac
    echo "== $arm round $r $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -jar "$JAR" calibrate --experiments 1 --pairs "$PAIRS" --jvm-args "$flags" \
        --out "warmup-c2only-$arm-$r.json" > "warmup-c2only-$arm-$r.txt" 2>&1
    echo "   done $(date -u +%H:%M:%S) rc $?"
  done
  r=$((r + 1))
done
