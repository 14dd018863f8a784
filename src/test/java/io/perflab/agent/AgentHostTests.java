package io.perflab.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What an agent registers of its trials' hardware counters, its fixed trial JVM flags weighed. */
class AgentHostTests {

    @Test
    void fixedFlagsThatTurnHardwareCountingOffMakeTheAgentSayItCountsNone() {
        assertThat(AgentHost.countsHardwareEvents(List.of("-Xmx1g", "-Dperflab.countHardware=false"))).isFalse();
        assertThat(AgentHost.countsHardwareEvents(List.of("-Dperflab.countHardware=false",
                "-Dperflab.countHardware=true"))).as("the last of a JVM's flags counts")
                .isEqualTo(AgentHost.countsHardwareEvents());
        assertThat(AgentHost.countsHardwareEvents(List.of())).isEqualTo(AgentHost.countsHardwareEvents());
    }
}
