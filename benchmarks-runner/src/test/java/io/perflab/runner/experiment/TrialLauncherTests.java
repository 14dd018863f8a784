package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Where trial JVMs are pinned: {@code --cpus} checked against the CPUs this process may use, before any trial. */
class TrialLauncherTests {

    private final TrialLauncher launcher = new TrialLauncher(List.of("-jar", "perflab.jar", "trial"));

    @Test
    void cpusThisProcessMayNotUseAreRefusedNamingThoseItMay() {
        CpuList allowed = new CpuList(List.of(0, 1));

        // taskset refused each trial JVM ("failed to set pid's affinity"), and every trial failed without a result
        assertThatThrownBy(() -> launcher.pinnedTo("999", allowed)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--cpus 999 names CPUs this process may not use (999); it may use 0-1");
        assertThatThrownBy(() -> launcher.pinnedTo("0-3,8", allowed))
                .hasMessage("--cpus 0-3,8 names CPUs this process may not use (2-3,8); it may use 0-1");
        assertThat(launcher.pinnedTo("1", allowed).cpus()).hasValue("1");
        assertThat(launcher.pinnedTo("0-1", allowed).cpus()).hasValue("0-1");
    }

    @Test
    void theCpusThisProcessMayUseAreTakenFromItsAffinity() {
        CpuList own = CpuList.available(Optional.empty());
        int beyond = own.cpus().get(own.cpus().size() - 1) + 1;

        assertThat(launcher.pinnedTo(own.toString()).cpus()).hasValue(own.toString());
        assertThatThrownBy(() -> launcher.pinnedTo(String.valueOf(beyond)))
                .hasMessageContaining("it may use " + own);
    }
}
