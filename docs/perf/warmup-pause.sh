#!/bin/sh
# The default alternating A/A (auto:15 warmup) with two runners, interleaved in rounds of 6 pairs, alone on the guest:
#   base  = the trial's load never paused before the first pause after its warmup
#   pause = the load pauses and resumes after each of the warmup's first five one-second steps
# Each arm's JVMs are judged by docs/perf/warmup-arms.py (warmup-pause.txt). First, one 2-pair experiment of the
# pause arm with -XX:+LogCompilation, whose compilations and traps per window docs/perf/warmup-jit-windows.py prints.
set -u
BASE=${BASE:-base.jar}
PAUSE=${PAUSE:-pause.jar}
PAIRS=${PAIRS:-6}
ROUNDS=${ROUNDS:-3}
FLAGS="-Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -Xbatch -XX:-UseDynamicNumberOfCompilerThreads"
mkdir -p jit-pause
java -jar "$PAUSE" ab --design alternating --pairs 2 --jvm-args "$FLAGS -XX:+UnlockDiagnosticVMOptions \
    -XX:+LogCompilation -XX:LogFile=$PWD/jit-pause/jit-%p.log" --out jit-pause/ab.json > jit-pause/ab.txt 2>&1
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for arm in base pause; do
    case $arm in
      base) jar=$BASE ;;
      pause) jar=$PAUSE ;;
    esac
    echo "== $arm round $r $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -jar "$jar" calibrate --experiments 1 --pairs "$PAIRS" \
        --out "warmup-pause-$arm-$r.json" > "warmup-pause-$arm-$r.txt" 2>&1
    echo "   done $(date -u +%H:%M:%S) rc $?"
  done
  r=$((r + 1))
done
