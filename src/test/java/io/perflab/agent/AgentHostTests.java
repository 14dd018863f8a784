package io.perflab.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What an agent registers of its trials' hardware counters, its fixed trial JVM flags weighed. */
class AgentHostTests {

    @Test
    void fixedFlagsThatTurnHardwareCountingOffMakeAnAgentOnAHostWithCountersSayItCountsNone() {
        assertThat(AgentHost.countsHardwareEvents(true, List.of())).isTrue();
        assertThat(AgentHost.countsHardwareEvents(true, List.of("-Xmx1g", "-Dperflab.countHardware=false"))).isFalse();
        assertThat(AgentHost.countsHardwareEvents(true, List.of("-Dperflab.countHardware=false",
                "-Dperflab.countHardware=true"))).as("the last of a JVM's flags counts").isTrue();
        assertThat(AgentHost.countsHardwareEvents(false, List.of("-Dperflab.countHardware=true"))).isFalse();
        assertThat(AgentHost.countsHardwareEvents(List.of())).isEqualTo(AgentHost.countsHardwareEvents());
    }
}
