#!/bin/bash
# One JVM, 15 windows of 3 s after an auto:30 warmup, for five workloads, one after another on a guest left idle
# (12-07, 12:21-12:28 UTC, jar of 88492d4): does a window's CPU per call move with the work the engine does per call
# (system calls, context switches) or without it? Read with window-noise.py (window-noise.txt).
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
run() { name=$1; shift; /usr/bin/time -f "%e s" $J bench --json --windows 15 --run-seconds 3 --warmup-seconds auto:30 \
    "$@" > "window-noise-$name.json" 2> "window-noise-$name.err"; }
run default
run ct1 --client-threads 1
run ct2 --client-threads 2
run async --mode async
run ct4 --client-threads 4
