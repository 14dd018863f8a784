package io.perflab.runner.trial;

/** How a trial ended. Only {@link #OK} trials carry a complete set of metrics. */
public enum TrialStatus {
    /** Finished and reported its metrics. */
    OK,
    /** Crashed, exited without a result, exited non-zero, or could not be started. */
    FAILED,
    /** Exceeded the trial timeout and was killed with its whole process tree. */
    TIMED_OUT,
    /** Stopped because the experiment was cancelled while it ran. */
    CANCELLED
}
