package io.perflab.experiment;

import io.perflab.agent.HostLabels;
import io.perflab.runner.experiment.ExperimentPlan;

/**
 * A validated experiment, ready to queue.
 *
 * @param name title
 * @param description free text, may be null
 * @param kind engine or command
 * @param preset the preset it came from, may be null
 * @param plan what the runner runs, with its design
 * @param stopping when a paired design may stop early; {@link PairedStopping#NONE} otherwise
 * @param hostLabels the labels an agent's host must carry to run it; {@link HostLabels#NONE}: any host
 */
public record ExperimentSpec(String name, String description, ExperimentKind kind, String preset,
                             ExperimentPlan plan, PairedStopping stopping, HostLabels hostLabels) {

    /** An experiment that runs on any host. */
    public ExperimentSpec(String name, String description, ExperimentKind kind, String preset, ExperimentPlan plan,
                          PairedStopping stopping) {
        this(name, description, kind, preset, plan, stopping, HostLabels.NONE);
    }

    /** An experiment that runs every planned trial or pair. */
    public ExperimentSpec(String name, String description, ExperimentKind kind, String preset, ExperimentPlan plan) {
        this(name, description, kind, preset, plan, PairedStopping.NONE);
    }
}
