#!/bin/bash
# A check of the final build of 12-05, whose sampler places lost samples by their time (sample_id_all) and leaves
# compiler threads started after a window opened out of the workload: 5 A/A experiments of the default design and
# size (alternating, 8 pairs of 3 windows of 3 s, auto:15), alone on the guest, as one block of aa-final.sh. Not
# acceptance 1's twenty: it shows whether the intervals, the sampled split and the false positives moved.
# Each experiment is then cut out and compared on its own (perflab compare), as aa-final-20-experiments.txt was.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > aa-check-1205.times
$J calibrate --experiments 5 --pairs 8 --out aa-check-1205.json > aa-check-1205.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> aa-check-1205.times
