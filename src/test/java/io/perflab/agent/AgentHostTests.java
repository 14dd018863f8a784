package io.perflab.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.rpcbench.HostCount;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** What an agent registers of its trials' counts a host may refuse, its fixed trial JVM flags weighed. */
class AgentHostTests {

    private static final Predicate<HostCount> EVERY = count -> true;

    @Test
    void fixedFlagsThatTurnHardwareCountingOffMakeAnAgentOnAHostWithCountersSayItCountsNone() {
        assertThat(AgentHost.counts(EVERY, List.of())).isEqualTo(new HostCounts(true, true));
        assertThat(AgentHost.counts(EVERY, List.of("-Xmx1g", "-Dperflab.countHardware=false")))
                .isEqualTo(new HostCounts(true, false));
        assertThat(AgentHost.counts(EVERY, List.of("-Dperflab.countHardware=false", "-Dperflab.countHardware=true")))
                .as("the last of a JVM's flags counts").isEqualTo(new HostCounts(true, true));
        assertThat(AgentHost.counts(count -> count != HostCount.HARDWARE, List.of("-Dperflab.countHardware=true")))
                .isEqualTo(new HostCounts(true, false));
    }

    /**
     * An agent registered nothing of system calls, so an experiment whose target was syscalls_per_req went to any
     * host and stopped after one pair on one whose kernel refuses the tracepoint, or whose trial JVMs do not count.
     */
    @Test
    void fixedFlagsThatTurnSystemCallCountingOffMakeAnAgentSayItCountsNone() {
        assertThat(AgentHost.counts(EVERY, List.of("-Dperflab.countSyscalls=false")))
                .isEqualTo(new HostCounts(false, true));
        assertThat(AgentHost.counts(EVERY, List.of("-Dperflab.countSyscalls=false", "-Dperflab.countSyscalls=true")))
                .isEqualTo(new HostCounts(true, true));
        assertThat(AgentHost.counts(count -> count != HostCount.SYSCALLS, List.of()))
                .isEqualTo(new HostCounts(false, true));
    }

    @Test
    void thisHostsAnswerIsTheKernelsForEachCount() {
        HostCounts here = AgentHost.counts(List.of());
        for (HostCount count : HostCount.values()) {
            assertThat(here.makes(count)).as(count.counted())
                    .isEqualTo(count.notCountedHere().isEmpty())
                    .isEqualTo(AgentHost.notCounted(count).isEmpty());
        }
    }
}
