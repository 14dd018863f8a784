package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialResult;

/**
 * Told about each pair of a paired design as it happens, on the runner's thread. A listener that stores results
 * should store each pair in {@link #pairFinished}, whole: windows come one by one for progress, but a pair whose
 * JVM fails later has no complete pair for them to belong to, and a resumed experiment runs a pair again whole.
 */
public interface PairListener {

    /** The pair's processes are about to start. */
    default void pairStarted(int pair, PairPlacement placement) {
    }

    /** One window of one variant was measured (a command run, in a command experiment). */
    default void windowFinished(TrialResult window) {
    }

    /** The pair ended, whatever its status. */
    void pairFinished(PairResult pair);
}
