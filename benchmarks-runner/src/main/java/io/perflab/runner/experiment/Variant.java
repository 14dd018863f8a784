package io.perflab.runner.experiment;

import java.util.Map;

/** What one side of an experiment runs: the engine under a workload, or a shell command. */
public sealed interface Variant permits EngineVariant, CommandVariant {

    /** The variant as JSON-ready entries, for the experiment record. */
    Map<String, Object> describe();
}
