package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.HostLabels;
import io.perflab.display.Format;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a queued experiment is said to wait for, from the groups of registered hosts. */
class HostWaitTests {

    private static final Instant HEARD = Instant.parse("2026-01-02T03:04:05Z");

    private static ExperimentRepository.Claimable queued(ExperimentKind kind, String required, String runLabels) {
        return new ExperimentRepository.Claimable(7, ExperimentStatus.QUEUED, kind, HostLabels.parse(required),
                runLabels);
    }

    private static AgentRepository.HostGroup hosts(String labels, boolean runsCommands, Instant heard,
            boolean live) {
        return new AgentRepository.HostGroup(HostLabels.parse(labels), runsCommands, heard, live);
    }

    @Test
    void aLiveHostOfTheLabelsAskedForLeavesNothingToSay() {
        assertThat(HostWait.of(queued(ExperimentKind.ENGINE, "pool=a", null),
                List.of(hosts("arch=x86_64,pool=a", false, HEARD, true)))).isEmpty();
    }

    @Test
    void onlyAHostThatHeartbeatsNoMoreSaysWhenOneWasLastAlive() {
        HostWait wait = HostWait.of(queued(ExperimentKind.ENGINE, "pool=a", null),
                List.of(hosts("pool=a", false, HEARD, false), hosts("pool=a", false, HEARD.minusSeconds(60), false),
                        hosts("pool=b", false, HEARD.plusSeconds(60), true))).orElseThrow();

        assertThat(wait.detail()).isEqualTo("Waiting for a host with labels pool=a; none alive since "
                + Format.time(HEARD) + ": start perflab agent on such a host, or bring its agent back.");
        assertThat(wait.noneAliveSince()).as("the latest of the hosts able to run it, not of pool=b").isEqualTo(HEARD);
        assertThat(wait.labels()).isEqualTo("pool=a");
        assertThat(wait.exactLabels()).isFalse();
    }

    @Test
    void aCommandExperimentWaitsForAHostThatRunsCommands() {
        HostWait wait = HostWait.of(queued(ExperimentKind.COMMAND, "", null),
                List.of(hosts("", false, HEARD, true))).orElseThrow();

        assertThat(wait.detail()).isEqualTo("Waiting for a host that runs command experiments; none has registered: "
                + "start perflab agent on such a host.");
        assertThat(wait.noneAliveSince()).isNull();
        assertThat(wait.runsCommands()).isTrue();
    }

    @Test
    void anExperimentThatHasRunWaitsForAHostOfExactlyTheLabelsItRanOn() {
        ExperimentRepository.Claimable resumed = queued(ExperimentKind.ENGINE, "pool=a", "pool=a");

        HostWait wait = HostWait.of(resumed, List.of(hosts("arch=arm64,pool=a", false, HEARD, true),
                hosts("pool=a", false, HEARD, false))).orElseThrow();

        assertThat(wait.detail()).startsWith("Waiting for a host labelled exactly pool=a (as the host its first "
                + "trial ran on); none alive since ");
        assertThat(wait.exactLabels()).isTrue();
        assertThat(HostWait.of(queued(ExperimentKind.ENGINE, "", ""), List.of(hosts("pool=a", false, HEARD, true)))
                .orElseThrow().detail()).startsWith("Waiting for a host without labels (as the host its first trial "
                        + "ran on); none has registered");
    }
}
