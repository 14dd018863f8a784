#!/bin/bash
# The stored A/A and +2.5 % known-effect campaigns of the default design's kind judged again as sequential
# experiments (`calibrate --from … --target …`: each block as `perflab ab --pairs K --target …` would have stopped,
# a look after every pair), at the default's 8 pairs and at 20 pairs, beside the fixed-size judgement of the same
# blocks. No trial runs; sequential-rejudge.txt.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
tmp=$(mktemp -d)
out=sequential-rejudge.txt
: > $out
judge() {  # title, then calibrate's arguments
    echo "== $1" >> $out
    shift
    echo "perflab calibrate $*" | sed "s|$tmp/||g" >> $out
    $J calibrate "$@" >> $out 2>&1
    echo >> $out
}
HEADLINE="--target user_cpu_us_per_req:settled --target sys_cpu_us_per_req:settled --target cpu_us_per_req:settled
    --target ctx_switches_per_req:settled"
for k in 8 20; do
    ./aa-clean-blocks.py $k 1000 "$tmp/aa-default-8-$k.json" aa-default-8.json > /dev/null
    ./aa-clean-blocks.py $k 1000 "$tmp/aa-pause-$k.json" aa-pause.json aa-pause-2.json > /dev/null
    ./aa-clean-blocks.py $k 1000 "$tmp/aa-final-$k.json" aa-final-[1-4].json > /dev/null
    ./aa-clean-blocks.py $k 1000 "$tmp/aa-twenty-1205-$k.json" aa-twenty-1205-[1-4].json > /dev/null
    ./aa-clean-blocks.py $k 1000 "$tmp/aa-twenty-idle-$k.json" aa-twenty-idle-[1-4].json > /dev/null
    for run in aa-default-8 aa-pause aa-final aa-twenty-1205 aa-twenty-idle; do
        f="$tmp/$run-$k.json"
        n=$(python3 -c "import json; print(json.load(open('$f'))['experiment']['pairs'] // $k)")
        # shellcheck disable=SC2086
        judge "A/A $run, $n experiments of at most $k pairs, the four headline metrics as targets" --from "$f" \
            --experiments "$n" --pairs $k $HEADLINE
    done
    for run in inject-2500 inject-2500-pause inject-2500-13 robust-confirm-2500; do
        ref=(--reference "$run-reference.json")
        [ "$run" = robust-confirm-2500 ] && ref=()  # no reference run: the injected cost is CPU per call's
        ./aa-clean-blocks.py $k 1000 "$tmp/$run-$k.json" $run.json > /dev/null
        f="$tmp/$run-$k.json"
        n=$(python3 -c "import json; print(json.load(open('$f'))['experiment']['pairs'] // $k)")
        judge "+2.5 % $run, $n experiments of at most $k pairs, CPU per call as the target" --from "$f" \
            --experiments "$n" --pairs $k --inject serverWorkNanos=2500 "${ref[@]}" \
            --target cpu_us_per_req:settled
    done
done
rm -r "$tmp"
