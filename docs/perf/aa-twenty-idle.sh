#!/bin/bash
# Acceptance 1's twenty A/A experiments of the default design and size (alternating, 8 pairs of 3 windows of 3 s,
# auto:15) on the build of d57735c, on a guest left idle for the whole run (no build, test or helper beside it; the
# 12-05 run had other processes at a median 6-8 % of a vCPU). Four files of 5, so that a cut-short queue keeps what
# ran. The jar is copied out of the tree first (PERFLAB_JAR) so that no build can change it under the run. Then
# aa-twenty-idle-analyse.sh.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > aa-twenty-idle.times
for k in 1 2 3 4; do
    $J calibrate --experiments 5 --pairs 8 --out aa-twenty-idle-$k.json > aa-twenty-idle-$k.txt 2>&1
    { date -u +%FT%TZ; uptime; } >> aa-twenty-idle.times
done
