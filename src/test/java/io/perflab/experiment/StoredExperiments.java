package io.perflab.experiment;

import java.time.Instant;

/** Experiments the tests store straight into the repository, as the scheduler stores one it is asked to run. */
public final class StoredExperiments {

    private StoredExperiments() {
    }

    /**
     * Stores a new experiment that no stored API token started, in status {@code status}; returns its id.
     *
     * @see ExperimentRepository#insert(ExperimentSpec, ExperimentStatus, String, Long, Instant)
     */
    public static long insert(ExperimentRepository repository, ExperimentSpec spec, ExperimentStatus status,
            String createdBy, Instant now) {
        return repository.insert(spec, status, createdBy, null, now);
    }
}
