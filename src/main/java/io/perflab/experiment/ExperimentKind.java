package io.perflab.experiment;

/** Where an experiment's samples come from. */
public enum ExperimentKind {
    /** The embedded engine under rpc-bench, a fresh JVM per trial. */
    ENGINE,
    /** Two shell commands, measured from outside (hyperfine-style). */
    COMMAND,
    /** Samples a CI system uploaded. */
    UPLOAD
}
