package io.perflab.experiment;

/** The life of an experiment. */
public enum ExperimentStatus {
    /** Waiting for the host's single executor. */
    QUEUED,
    /** Its trials are running now. */
    RUNNING,
    /** Every trial of the plan ran. */
    COMPLETED,
    /** Stopped because more trials failed than the plan allows. */
    FAILED,
    /** Stopped by a user; finished runs are kept. */
    CANCELLED,
    /** The server stopped while it ran; finished runs are kept and {@code resume} runs the rest. */
    INTERRUPTED;

    /** Whether {@code resume} may queue it again. */
    public boolean resumable() {
        return this == INTERRUPTED || this == CANCELLED || this == FAILED;
    }

    /** Whether it will not change on its own any more. */
    public boolean finished() {
        return this != QUEUED && this != RUNNING;
    }
}
