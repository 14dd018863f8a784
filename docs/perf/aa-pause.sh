#!/bin/bash
# A/A of the default design and size (alternating, 8 pairs) on the build whose warmup pauses its load (2c64182),
# right after inject-2500-pause.sh, alone on the guest: 6 experiments, what the session's time allowed (acceptance 1's
# 20 were measured on the build before, aa-default-8-20.txt).
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > aa-pause.times
$J calibrate --experiments 6 --pairs 8 --out aa-pause.json > aa-pause.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> aa-pause.times
