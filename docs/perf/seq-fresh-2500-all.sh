#!/bin/bash
# The ten fresh known-effect experiments of the sequential design of at most 20 pairs (seq-fresh-2500.sh's four and
# seq-fresh-2500-b.sh's six, one build, alone on the guest) judged together, fixed-size and as
# `perflab ab --pairs 20 --target cpu_us_per_req:settled` stops: acceptance 2's count for that design. No trial runs.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
./aa-clean-blocks.py 20 1000 seq-fresh-2500-all.json seq-fresh-2500.json seq-fresh-2500-b.json \
    > seq-fresh-2500-all-blocks.txt
$J calibrate --from seq-fresh-2500-all.json --experiments 10 --pairs 20 --inject serverWorkNanos=2500 \
    --target cpu_us_per_req:settled > seq-fresh-2500-all.txt 2>&1
