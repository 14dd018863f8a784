#!/bin/bash
# Acceptance 1's twenty A/A experiments of the default design and size (alternating, 8 pairs of 3 windows of 3 s,
# auto:15) again, on the build of 3c6c7d9 (sampler losses placed by time, compiler threads named as their samples
# come, the 12-05 fixes), alone on the guest, in four files of 5 so that a cut-short queue keeps what ran. The jar is
# copied out of the tree first so that no build can change it under the run. Then:
#   ./aa-clean-blocks.py 8 1000 aa-twenty-1205-all.json aa-twenty-1205-[1-4].json
#   perflab calibrate --from aa-twenty-1205-all.json --experiments 20 --pairs 8      # aa-twenty-1205.txt
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > aa-twenty-1205.times
for k in 1 2 3 4; do
    $J calibrate --experiments 5 --pairs 8 --out aa-twenty-1205-$k.json > aa-twenty-1205-$k.txt 2>&1
    { date -u +%FT%TZ; uptime; } >> aa-twenty-1205.times
done
