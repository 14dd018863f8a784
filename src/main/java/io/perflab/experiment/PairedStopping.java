package io.perflab.experiment;

import io.perflab.paired.SequentialStopping;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * When a paired experiment may stop before its last planned pair ({@link SequentialStopping}): once every target is
 * settled, or when another pair would overrun the budget.
 *
 * @param targets the metrics to settle, each {@code METRIC:PERCENT%} or {@code METRIC:settled}; may be empty
 * @param budget the wall time the experiment's pairs may take, if limited
 */
public record PairedStopping(List<SequentialStopping.Target> targets, Optional<Duration> budget) {

    /** Every planned pair runs. */
    public static final PairedStopping NONE = new PairedStopping(List.of(), Optional.empty());

    public PairedStopping {
        targets = List.copyOf(targets);
    }

    /** Whether there is anything to stop for. */
    public boolean active() {
        return !targets.isEmpty() || budget.isPresent();
    }

    /** The targets as the user writes them, e.g. {@code cpu_us_per_req:1.5%}. */
    public List<String> targetTexts() {
        return targets.stream().map(SequentialStopping.Target::toString).toList();
    }
}
