package io.perflab.experiment;

import io.perflab.agent.HostLabels;
import io.perflab.runner.experiment.ExperimentDesign;
import java.time.Instant;

/**
 * An experiment row as stored.
 *
 * @param runsPerVariant trials per variant; in a paired design, the pairs planned
 * @param createdBy who started it, for people: a user's name, or {@code token:} and an API token's name; null where
 *     it was not recorded
 * @param createdByToken the id of the stored API token that started it, which alone controls it besides an
 *     administrator ({@link ExperimentCaller#controls}); null when a user or the bootstrap token started it
 * @param dataVersion bumped whenever runs are stored; cached results carry the version they were computed for
 * @param design fresh trials or pairs
 * @param windowsPerPair windows of each variant per pair in a paired design; 1 in the fresh design
 * @param stopping the targets and budget of a paired design's sequential stopping, {@link PairedStopping#NONE} when
 *     every planned pair runs
 * @param stopReason why its stopping rule stopped a paired experiment (early, or at its last look), else null
 * @param hostLabels the labels an agent's host must carry to run it; {@link HostLabels#NONE}: any host
 * @param agentId the agent that runs it now (while RUNNING) or ran it last; null if none did
 * @param baseExperimentId for an upload of one side, the upload it was compared with when it came in (its base,
 *     {@link ExperimentRepository#recordBase}); null when it had none, or when that upload was deleted since
 */
public record ExperimentRecord(long id, String name, String description, ExperimentKind kind,
                               ExperimentStatus status, String preset, String benchmark, int runsPerVariant,
                               String runOrder, long seed, int trialTimeoutSeconds, int maxFailures,
                               String createdBy, Long createdByToken, Instant createdAt, Instant startedAt,
                               Instant finishedAt, int dataVersion, String error, ExperimentDesign design,
                               int windowsPerPair, PairedStopping stopping, String stopReason, HostLabels hostLabels,
                               Long agentId, Long baseExperimentId) {

    /** An experiment compared with no base, started by no stored API token. */
    public ExperimentRecord(long id, String name, String description, ExperimentKind kind, ExperimentStatus status,
                            String preset, String benchmark, int runsPerVariant, String runOrder, long seed,
                            int trialTimeoutSeconds, int maxFailures, String createdBy, Instant createdAt,
                            Instant startedAt, Instant finishedAt, int dataVersion, String error,
                            ExperimentDesign design, int windowsPerPair, PairedStopping stopping, String stopReason,
                            HostLabels hostLabels, Long agentId) {
        this(id, name, description, kind, status, preset, benchmark, runsPerVariant, runOrder, seed,
                trialTimeoutSeconds, maxFailures, createdBy, null, createdAt, startedAt, finishedAt, dataVersion,
                error, design, windowsPerPair, stopping, stopReason, hostLabels, agentId, null);
    }

    /**
     * Trials in the whole plan; in a paired design, the windows of both variants of every planned pair (a pair that
     * fails counts as all its windows done).
     */
    public int totalRuns() {
        return design.paired() ? runsPerVariant * windowsPerPair * 2 : runsPerVariant * 2;
    }

    /** Whether the pair, not the trial, is the unit of replication. */
    public boolean paired() {
        return design.paired();
    }
}
