#!/bin/bash
# The analysis of aa-twenty-idle.sh's four files: which experiments ran beside other work, acceptance 1's table of
# the twenty, each experiment judged on its own, the JVMs' warmup against the 12-05 run's, and whether the
# experiments vary more than their intervals say (against the runs of 12-05 and 12-04).
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
./aa-clean-blocks.py 8 1000 aa-twenty-idle-all.json aa-twenty-idle-[1-4].json > aa-twenty-idle-blocks.txt
$J calibrate --from aa-twenty-idle-all.json --experiments 20 --pairs 8 > aa-twenty-idle.txt 2>&1
tmp=$(mktemp -d)
./slice-pairs.py 8 "$tmp/e" aa-twenty-idle-all.json
: > aa-twenty-idle-experiments.txt
for k in $(seq 0 19); do
    echo "== experiment $((k + 1)) of aa-twenty-idle-all.json (pairs $((8 * k))–$((8 * k + 7)), renumbered from 0):" \
        "perflab compare e-$k.json e-$k.json" >> aa-twenty-idle-experiments.txt
    $J compare "$tmp/e-$k.json" "$tmp/e-$k.json" >> aa-twenty-idle-experiments.txt 2>&1
done
rm -r "$tmp"
./warmup-arms.py aa-twenty-idle-[1-4].json -- aa-twenty-1205-[1-4].json > aa-twenty-idle-warmup.txt 2>&1
./aa-dispersion.py 8 aa-twenty-idle-[1-4].json -- aa-twenty-1205-[1-4].json -- aa-final-[1-4].json \
    > aa-twenty-idle-dispersion.txt 2>&1
