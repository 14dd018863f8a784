package io.perflab.experiment;

import java.time.Instant;

/**
 * An experiment row as stored.
 *
 * @param dataVersion bumped whenever runs are stored; cached results carry the version they were computed for
 */
public record ExperimentRecord(long id, String name, String description, ExperimentKind kind,
                               ExperimentStatus status, String preset, String benchmark, int runsPerVariant,
                               String runOrder, long seed, int trialTimeoutSeconds, int maxFailures,
                               String createdBy, Instant createdAt, Instant startedAt, Instant finishedAt,
                               int dataVersion, String error) {

    /** Trials in the whole plan. */
    public int totalRuns() {
        return runsPerVariant * 2;
    }
}
