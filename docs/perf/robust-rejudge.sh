#!/bin/bash
# Every stored A/A and known-effect campaign of the default design's kind judged again by `calibrate --from`, which
# prints the verdict's paired t-test and, beside it, the robust check (Huber's score of the windows' log ratios,
# tested by flipping the signs of whole pairs): false positives, bias, coverage and power of each, on the same pairs.
# No trial runs; robust-rejudge.txt.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
tmp=$(mktemp -d)
out=robust-rejudge.txt
: > $out
judge() {  # title, then calibrate's arguments
    echo "== $1" >> $out
    shift
    echo "perflab calibrate $*" | sed "s|$tmp/||g" >> $out
    $J calibrate "$@" >> $out 2>&1
    echo >> $out
}
./aa-clean-blocks.py 8 1000 "$tmp/aa-final-all.json" aa-final-[1-4].json > /dev/null
./aa-clean-blocks.py 8 1000 "$tmp/aa-twenty-idle-all.json" aa-twenty-idle-[1-4].json > /dev/null
./aa-clean-blocks.py 8 1000 "$tmp/aa-twenty-1205-all.json" aa-twenty-1205-[1-4].json > /dev/null
./aa-clean-blocks.py 8 1000 "$tmp/aa-pause-all.json" aa-pause.json aa-pause-2.json > /dev/null
judge "A/A, 12-03: aa-default-8 (16 experiments of 8 pairs)" --from aa-default-8.json --experiments 16 --pairs 8
judge "A/A, 12-04: aa-pause (8 pairs)" --from "$tmp/aa-pause-all.json" --experiments 20 --pairs 8
judge "A/A, 12-04 evening: aa-final (20 of 8 pairs)" --from "$tmp/aa-final-all.json" --experiments 20 --pairs 8
judge "A/A, 12-05 morning: aa-twenty-1205 (20 of 8 pairs)" --from "$tmp/aa-twenty-1205-all.json" --experiments 20 \
    --pairs 8
judge "A/A, 12-05 idle: aa-twenty-idle (20 of 8 pairs)" --from "$tmp/aa-twenty-idle-all.json" --experiments 20 \
    --pairs 8
judge "+2.5 %, 12-03: inject-2500 (10 of 8 pairs)" --from inject-2500.json --experiments 10 --pairs 8 \
    --inject serverWorkNanos=2500 --reference inject-2500-reference.json
judge "+2.5 %, 12-03 night: inject-2500-pause (10 of 8 pairs)" --from inject-2500-pause.json --experiments 10 \
    --pairs 8 --inject serverWorkNanos=2500 --reference inject-2500-pause-reference.json
judge "+2.5 %, 12-04: inject-2500-13 (10 of 13 pairs)" --from inject-2500-13.json --experiments 10 --pairs 13 \
    --inject serverWorkNanos=2500 --reference inject-2500-13-reference.json
rm -r "$tmp"
