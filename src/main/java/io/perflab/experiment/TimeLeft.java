package io.perflab.experiment;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The estimate of the time an experiment still needs, in seconds: what its view ({@link ExperimentView#etaSeconds})
 * and its {@code run} events ({@code etaSeconds}) say, worked out here alone so that a live page reads the same
 * estimate as a reload. Null when there is none: the experiment does not run, or has stored no trial (pair) yet.
 */
final class TimeLeft {

    private TimeLeft() {
    }

    /** A fresh design's: the mean time of the {@code done} trials stored × the trials left of the plan's. */
    static Long ofTrials(ExperimentRecord e, List<ExperimentRepository.RunTiming> trials, int done) {
        return meanTimesLeft(e, trials, done, e.totalRuns());
    }

    /**
     * A paired design's, at {@code now}: the mean time of the stored pairs × the pairs left, at most what its budget
     * leaves.
     */
    static Long ofPairs(ExperimentRecord e, List<ExperimentRepository.RunTiming> pairs, Instant now) {
        return withinBudget(meanTimesLeft(e, pairs, pairs.size(), e.runsPerVariant()), e.stopping().budget(),
                e.startedAt(), pairs, now);
    }

    private static Long meanTimesLeft(ExperimentRecord e, List<ExperimentRepository.RunTiming> units, int done,
                                      int total) {
        if (e.status() != ExperimentStatus.RUNNING || done == 0) {
            return null;
        }
        double meanSeconds = units.stream()
                .filter(r -> r.startedAt() != null && r.finishedAt() != null)
                .mapToLong(r -> Duration.between(r.startedAt(), r.finishedAt()).toMillis())
                .average().orElse(0) / 1000.0;
        return Math.round(meanSeconds * Math.max(0, total - done));
    }

    /**
     * {@code eta} at most what a paired experiment's time budget leaves at {@code now}: its runner starts no pair
     * that would end after the budget, so the pairs still planned may never run. The budget is spent as the stopping
     * rule spends it ({@link PairedStoppingRules}): by the wall time since this run began ({@code runStart}, when
     * the experiment was claimed), setups and the pair under way included, and by the pairs of the experiment's
     * earlier runs, those that ended before this one began.
     *
     * @param runStart when the run began; null (not known): only the earlier runs' pairs count
     */
    static Long withinBudget(Long eta, Optional<Duration> budget, Instant runStart,
                             List<ExperimentRepository.RunTiming> pairs, Instant now) {
        if (eta == null || budget.isEmpty()) {
            return eta;
        }
        Duration spent = runStart == null ? Duration.ZERO : Duration.between(runStart, now);
        if (spent.isNegative()) {
            spent = Duration.ZERO;
        }
        for (ExperimentRepository.RunTiming pair : pairs) {
            if (pair.startedAt() != null && pair.finishedAt() != null
                    && (runStart == null || !pair.finishedAt().isAfter(runStart))) {
                spent = spent.plus(Duration.between(pair.startedAt(), pair.finishedAt()));
            }
        }
        return Math.min(eta, Math.max(0, budget.get().minus(spent).toSeconds()));
    }
}
