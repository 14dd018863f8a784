#!/bin/sh
# What the JIT compiles late in a pair's warmup (warmup-quiet.txt found the windows trending after a warmup that
# ended when the compiler had been quiet for five seconds, and not after a fixed 40 s): two default alternating
# pairs with a fixed 45 s warmup, -XX:+LogCompilation and a GC log; docs/perf/warmup-jit-windows.py prints the
# compilations and traps of each 3 s of the last 30 s before window 0, and of each window (warmup-late-jit.txt).
set -eu
JAR=${JAR:-perflab.jar}
FLAGS="-Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -Xbatch -XX:-UseDynamicNumberOfCompilerThreads"
mkdir -p warmup-late-jit
java -jar "$JAR" ab --design alternating --pairs 2 --warmup-seconds 45 --jvm-args "$FLAGS \
    -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=$PWD/warmup-late-jit/jit-%p.log \
    -Xlog:gc:file=$PWD/warmup-late-jit/gc-%p.log" --out warmup-late-jit/ab.json > warmup-late-jit/ab.txt 2>&1
python3 "$(dirname "$0")/warmup-jit-windows.py" warmup-late-jit 30
