#!/bin/bash
# A/A of the default design and size (alternating, 8 pairs of 3 windows of 3 s, auto:15) on the build whose meter
# names each thread once (571e25a; here the jar of c7fb1d2): acceptance 1's 20 experiments again on the final
# instrument, alone on the guest, in four files of 5 so that a cut-short queue keeps what ran. Then:
#   docs/perf/aa-clean-blocks.py 8 1000 aa-final-all.json aa-final-1.json aa-final-2.json aa-final-3.json aa-final-4.json
#   perflab calibrate --from aa-final-all.json --experiments 20 --pairs 8      # aa-final-20.txt
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > aa-final.times
for k in 1 2 3 4; do
    $J calibrate --experiments 5 --pairs 8 --out aa-final-$k.json > aa-final-$k.txt 2>&1
    { date -u +%FT%TZ; uptime; } >> aa-final.times
done
