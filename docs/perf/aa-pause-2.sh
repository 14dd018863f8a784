#!/bin/bash
# A/A of the default design and size (alternating, 8 pairs) on the build whose warmup pauses its load, continuing
# aa-pause.sh (6 experiments) toward acceptance 1's 20 on that build: 14 experiments more, alone on the guest, on
# the jar of 53c44ab (runner and engine as at 2c64182). aa-clean-blocks.py joins the two files.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > aa-pause-2.times
$J calibrate --experiments 14 --pairs 8 --out aa-pause-2.json > aa-pause-2.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> aa-pause-2.times
