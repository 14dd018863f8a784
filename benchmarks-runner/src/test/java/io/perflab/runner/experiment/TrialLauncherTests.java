package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.runner.rpcbench.Workload;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Where trial JVMs are pinned: {@code --cpus} checked against the CPUs this process may use, before any trial; and
 * the flags an engine option needs from the JVM, given to both sides.
 */
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

    /**
     * {@code completion=futex} needs the foreign linker: both sides' JVMs get its flags, not only the side that uses
     * it, so that the two differ by the change alone; an experiment without it gets none.
     */
    @Test
    void flagsAnEngineOptionNeedsAreGivenToBothSides() {
        Workload workload = Workload.DEFAULTS;
        EngineVariant condvar = EngineVariant.of(Map.of("completion", "condvar"), workload);
        EngineVariant futex = EngineVariant.of(Map.of("completion", "futex"), workload);
        ExperimentPlan plan = ExperimentPlan.of(condvar, futex, 2);
        List<String> needed = List.of("--add-modules=jdk.incubator.foreign", "--enable-native-access=ALL-UNNAMED");

        for (EngineVariant side : List.of(condvar, futex)) {
            List<String> command = launcher.command(plan, side);
            int entry = command.indexOf("-jar");
            assertThat(command.subList(0, entry)).containsSubsequence(ExperimentPlan.DEFAULT_JVM_ARGS)
                    .containsSubsequence(needed);
            assertThat(launcher.drivenCommand(plan.trialJvmArgs(), side, Optional.empty())).containsAll(needed);
        }
        assertThat(ExperimentPlan.of(condvar, EngineVariant.of(Map.of("completion", "notification"), workload), 2)
                .trialJvmArgs()).isEqualTo(ExperimentPlan.DEFAULT_JVM_ARGS);
        assertThat(new MultiVariantPlan(new java.util.LinkedHashMap<>(Map.of("a", condvar, "b", futex)), 2,
                java.time.Duration.ofMinutes(1), java.time.Duration.ZERO, 3, List.of()).trialJvmArgs())
                .isEqualTo(needed);
    }
}
