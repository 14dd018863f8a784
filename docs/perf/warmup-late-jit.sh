#!/bin/sh
# What the JIT compiles late in a pair's warmup (warmup-quiet.txt found the windows trending after a warmup that
# ended when the compiler had been quiet for five seconds, and not after a fixed 40 s): two default alternating
# pairs with a fixed 45 s warmup, -XX:+LogCompilation and a GC log; docs/perf/warmup-jit-windows.py prints the
# compilations and traps of each 3 s of the last 30 s before window 0, and of each window (warmup-late-jit.txt).
#
#   [JAR=perflab.jar] [OUT=warmup-late-jit] [PAIRS=2] docs/perf/warmup-late-jit.sh
set -eu
JAR=${JAR:-perflab.jar}
OUT=${OUT:-warmup-late-jit}
PAIRS=${PAIRS:-2}
FLAGS="-Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -Xbatch -XX:-UseDynamicNumberOfCompilerThreads"
mkdir -p "$OUT"
java -jar "$JAR" ab --design alternating --pairs "$PAIRS" --warmup-seconds 45 --jvm-args "$FLAGS \
    -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=$PWD/$OUT/jit-%p.log \
    -Xlog:gc:file=$PWD/$OUT/gc-%p.log" --out "$OUT/ab.json" > "$OUT/ab.txt" 2>&1
python3 "$(dirname "$0")/warmup-jit-windows.py" "$OUT" 30
