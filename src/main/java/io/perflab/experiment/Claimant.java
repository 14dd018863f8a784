package io.perflab.experiment;

import io.perflab.agent.HostCounts;
import io.perflab.agent.HostLabels;
import io.perflab.agent.HostPlatform;

/**
 * An agent as the queue sees it when it claims an experiment.
 *
 * @param agentId its id; null only for a scheduler built without an agent registry (tests of the scheduler alone)
 * @param labels the labels of its host
 * @param builtIn whether it is a service's in-process scheduler; built-in and remote agents run the same
 *     experiments, paired designs with a stopping rule too (the service takes the rule's looks as their pairs are
 *     stored)
 * @param runsCommands whether it runs command experiments
 * @param platform the platform of its host ({@link HostPlatform#registered}); null when its agent registered none,
 *     and then it is given no experiment with an engine option that runs on one platform only ({@link PlatformNeed}).
 *     Such an agent may be on any platform: given the experiment on trust, on another platform it would fail every
 *     trial as its engine client starts, and the experiment after them, to be created again. Not given it, the
 *     experiment waits, queued, and its page and the API say for what ({@link HostWait}): the safer of the two, since
 *     waiting loses nothing and the wait is told.
 * @param counts what its agent said of the counts its trials make only where the host allows them: system calls,
 *     and instructions and cycles with the CPU's hardware counters. Of a count it said nothing of (one of an earlier
 *     release), as of one it said false, it is given no experiment whose stopping target names that count's metric
 *     ({@link HostNeeds}): on a host that does not make the count such an experiment stops after its first pair, its
 *     target unmeasured.
 */
public record Claimant(Long agentId, HostLabels labels, boolean builtIn, boolean runsCommands,
                       HostPlatform platform, HostCounts counts) {

    /**
     * Whether it may run an experiment of {@code kind} that asks for {@code required} labels, has run on hosts
     * labelled {@code runLabels} (null: on none yet) and needs {@code needs} of its host.
     */
    boolean mayRun(ExperimentKind kind, HostLabels required, String runLabels, HostNeeds needs) {
        return takes(kind, required, runLabels) && needs.metBy(platform, counts);
    }

    /**
     * As {@link #mayRun}, whatever its platform and counts: whether its labels and kinds of experiments
     * would do.
     */
    boolean takes(ExperimentKind kind, HostLabels required, String runLabels) {
        return labels.satisfies(required)
                && (runLabels == null || runLabels.equals(labels.canonical()))
                && (kind != ExperimentKind.COMMAND || runsCommands);
    }
}
