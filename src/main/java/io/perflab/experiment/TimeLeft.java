package io.perflab.experiment;

import java.time.Duration;
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

    /** A paired design's: the mean time of the stored pairs × the pairs left, at most what its budget leaves. */
    static Long ofPairs(ExperimentRecord e, List<ExperimentRepository.RunTiming> pairs) {
        return withinBudget(meanTimesLeft(e, pairs, pairs.size(), e.runsPerVariant()), e.stopping().budget(), pairs);
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
     * {@code eta} at most what a paired experiment's time budget leaves after its stored pairs: its runner starts no
     * pair that would end after the budget, so the pairs still planned may never run.
     */
    static Long withinBudget(Long eta, Optional<Duration> budget, List<ExperimentRepository.RunTiming> pairs) {
        if (eta == null || budget.isEmpty()) {
            return eta;
        }
        long spent = pairs.stream().filter(p -> p.startedAt() != null && p.finishedAt() != null)
                .mapToLong(p -> Duration.between(p.startedAt(), p.finishedAt()).toSeconds()).sum();
        return Math.min(eta, Math.max(0, budget.get().toSeconds() - spent));
    }
}
