#!/bin/bash
# The analysis of aa-twenty-1205.sh's four files: which experiments ran beside other work, acceptance 1's table of
# the twenty, each experiment judged on its own, and the JVMs' warmup against the 12-04 campaign's.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
./aa-clean-blocks.py 8 1000 aa-twenty-1205-all.json aa-twenty-1205-[1-4].json > aa-twenty-1205-blocks.txt
$J calibrate --from aa-twenty-1205-all.json --experiments 20 --pairs 8 > aa-twenty-1205.txt 2>&1
tmp=$(mktemp -d)
./slice-pairs.py 8 "$tmp/e" aa-twenty-1205-all.json
: > aa-twenty-1205-experiments.txt
for k in $(seq 0 19); do
    echo "== experiment $((k + 1)) of aa-twenty-1205-all.json (pairs $((8 * k))–$((8 * k + 7)), renumbered from 0):" \
        "perflab compare e-$k.json e-$k.json" >> aa-twenty-1205-experiments.txt
    $J compare "$tmp/e-$k.json" "$tmp/e-$k.json" >> aa-twenty-1205-experiments.txt 2>&1
done
rm -r "$tmp"
./warmup-arms.py aa-twenty-1205-[1-4].json -- aa-final-[1-4].json > aa-twenty-1205-warmup.txt 2>&1
