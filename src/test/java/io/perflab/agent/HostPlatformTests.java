package io.perflab.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The platform an agent registers, and how the service reads it from a registration of any release. */
class HostPlatformTests {

    @Test
    void anAgentRegistersThePlatformItsJvmReports() {
        Map<String, String> environment = AgentHost.environment();

        assertThat(environment).containsEntry(AgentHost.OS_NAME, System.getProperty("os.name"))
                .containsEntry(AgentHost.OS_ARCH, System.getProperty("os.arch"));
        assertThat(HostPlatform.registered(environment)).contains(HostPlatform.current());
    }

    @Test
    void itsOwnEntriesSayThePlatformBeforeItsKernel() {
        assertThat(HostPlatform.registered(Map.of(AgentHost.OS_NAME, "Mac OS X", AgentHost.OS_ARCH, "aarch64",
                "kernel", "Linux 6.1.0 amd64"))).contains(new HostPlatform("Mac OS X", "aarch64"));
        assertThat(HostPlatform.registered(Map.of(AgentHost.OS_NAME, "Linux", "kernel", "Linux 6.1.0 amd64")))
                .as("one of the two says nothing").isEmpty();
    }

    /** Every perflab agent registered its kernel as os.name, os.version and os.arch, one after the other. */
    @Test
    void anAgentOfAnEarlierReleaseIsReadByItsKernel() {
        assertThat(HostPlatform.registered(Map.of("kernel", "Linux 6.1.0-18-amd64 amd64")))
                .contains(new HostPlatform("Linux", "amd64"));
        assertThat(HostPlatform.registered(Map.of("kernel", "Mac OS X 14.1 aarch64")))
                .contains(new HostPlatform("Mac OS X", "aarch64"));
        assertThat(HostPlatform.registered(Map.of("kernel", "Windows 11 10.0 amd64")))
                .contains(new HostPlatform("Windows 11", "amd64"));
    }

    @Test
    void aRegistrationThatSaysNoPlatformHasNone() {
        assertThat(HostPlatform.registered(Map.of())).isEmpty();
        assertThat(HostPlatform.registered(Map.of("kernel", "6.8"))).isEmpty();
        assertThat(HostPlatform.registered(Map.of(AgentHost.OS_NAME, " ", AgentHost.OS_ARCH, "amd64"))).isEmpty();
        assertThat(HostPlatform.registered(Map.of(AgentHost.OS_NAME, "L".repeat(HostPlatform.MAX_PART + 1),
                AgentHost.OS_ARCH, "amd64"))).as("longer than its column").isEmpty();
    }
}
