package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One finished pair of a paired design: everything a store needs to keep it, in one piece. A pair is stored whole
 * or not at all; an experiment resumed after a crash runs its unstored pairs again from the start.
 *
 * @param index the pair, from 0
 * @param status {@link TrialStatus#OK} when every window of both variants was measured; otherwise how the pair
 *     failed (the failure of either JVM fails both)
 * @param placement CPUs and start order
 * @param results OK: every window of both variants in the order they were measured, each a {@link TrialResult}
 *     with its {@link io.perflab.runner.trial.PairPosition}; failed: one record per variant, with the error and no
 *     window (windows measured before the failure are not kept: they have no complete pair to belong to)
 * @param start when the pair's first process was started
 * @param end when its processes were gone
 * @param setup from the start to both JVMs warmed up: what a pair costs before its first window (Kalibera and
 *     Jones's c₁, with {@link #end} − the last window's end); zero for commands
 * @param measuring from the first window's command to the last window's result; divided by the windows per pair,
 *     what one more window of each variant costs (c₂)
 * @param error what went wrong, naming the variant whose process failed; null when OK
 */
public record PairResult(int index, TrialStatus status, PairPlacement placement, List<TrialResult> results,
                         Instant start, Instant end, Duration setup, Duration measuring, String error) {

    public PairResult {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(placement, "placement");
        results = List.copyOf(results);
        Objects.requireNonNull(setup, "setup");
        Objects.requireNonNull(measuring, "measuring");
    }

    public boolean ok() {
        return status == TrialStatus.OK;
    }

    /** The window results of {@code variant}, in window order; empty for a failed pair. */
    public List<TrialResult> windows(VariantName variant) {
        if (!ok()) {
            return List.of();
        }
        return results.stream().filter(r -> r.variant().equals(variant.label()))
                .sorted(java.util.Comparator.comparing(r -> r.pair().window()))
                .toList();
    }
}
