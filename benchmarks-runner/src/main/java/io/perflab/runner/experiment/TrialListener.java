package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialResult;

/**
 * Told about each trial as it happens, on the runner's thread. A listener that stores results should store
 * each one in {@link #trialFinished} so that a crash of the runner loses at most the trial in flight.
 */
public interface TrialListener {

    /** A trial is about to start. */
    default void trialStarted(PlannedTrial trial) {
    }

    /** A trial ended, whatever its status. */
    void trialFinished(TrialResult result);
}
