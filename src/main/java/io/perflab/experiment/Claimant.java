package io.perflab.experiment;

import io.perflab.agent.HostLabels;

/**
 * An agent as the queue sees it when it claims an experiment.
 *
 * @param agentId its id; null only for a scheduler built without an agent registry (tests of the scheduler alone)
 * @param labels the labels of its host
 * @param builtIn whether it is a service's in-process scheduler; built-in and remote agents run the same
 *     experiments, paired designs with a stopping rule too (the service takes the rule's looks as their pairs are
 *     stored)
 * @param runsCommands whether it runs command experiments
 */
public record Claimant(Long agentId, HostLabels labels, boolean builtIn, boolean runsCommands) {

    /**
     * Whether it may run an experiment of {@code kind} that asks for {@code required} labels and has run on hosts
     * labelled {@code runLabels} (null: on none yet).
     */
    boolean mayRun(ExperimentKind kind, HostLabels required, String runLabels) {
        return labels.satisfies(required)
                && (runLabels == null || runLabels.equals(labels.canonical()))
                && (kind != ExperimentKind.COMMAND || runsCommands);
    }
}
