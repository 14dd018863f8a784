package io.perflab.paired;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.rpcbench.Workload;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which targets a plan's own trial JVM flags, or its design, keep from being measured. */
class PairedInputCountsTests {

    private static EngineVariant variant(String completion, String... flags) {
        return new EngineVariant(EngineOptions.fromMap(Map.of("completion", completion)), Workload.PAIRED_DEFAULTS,
                List.of(flags), Optional.empty());
    }

    private static ExperimentPlan plan(ExperimentDesign design, EngineVariant without, EngineVariant with) {
        return ExperimentPlan.of(without, with, 8).withDesign(design, 3);
    }

    @Test
    void aVariantWhoseJvmsTurnHardwareCountingOffCountsNoInstructionsOrCycles() {
        ExperimentPlan plan = plan(ExperimentDesign.ALTERNATING, variant("monitor"),
                variant("notification", "-Dperflab.countHardware=false"));

        assertThat(PairedInput.uncounted("instructions_per_req", plan))
                .contains("the with variant's trial JVMs are given -Dperflab.countHardware=false");
        assertThat(PairedInput.uncounted("cycles_per_req", plan)).isPresent();
        assertThat(PairedInput.uncounted("syscalls_per_req", plan)).isEmpty();
        assertThat(PairedInput.uncounted("cpu_us_per_req", plan)).as("measured by every trial").isEmpty();
    }

    @Test
    void ofAJvmsFlagsTheLastOneCounts() {
        ExperimentPlan plan = plan(ExperimentDesign.ALTERNATING,
                variant("monitor", "-Dperflab.countSyscalls=true", "-Dperflab.countSyscalls=false"),
                variant("notification", "-Dperflab.countSyscalls=false", "-Dperflab.countSyscalls=true"));

        assertThat(PairedInput.uncounted("syscalls_per_req", plan))
                .contains("the without variant's trial JVMs are given -Dperflab.countSyscalls=false");
    }

    @Test
    void aDuetCountsSystemCallsOnlyWhereBothVariantsJvmsAreToldTo() {
        assertThat(PairedInput.uncounted("syscalls_per_req", plan(ExperimentDesign.DUET, variant("monitor"),
                variant("notification")))).hasValueSatisfying(why -> assertThat(why).startsWith("a duet's trial "
                + "JVMs count no system calls unless given -Dperflab.countSyscalls=true").endsWith("and the "
                + "without variant's are not"));
        assertThat(PairedInput.uncounted("syscalls_per_req", plan(ExperimentDesign.DUET, variant("monitor"),
                variant("notification", "-Dperflab.countSyscalls=true")))).as("only one variant told")
                .hasValueSatisfying(why -> assertThat(why).endsWith("the without variant's are not"));
        assertThat(PairedInput.uncounted("syscalls_per_req", plan(ExperimentDesign.DUET,
                variant("monitor", "-Dperflab.countSyscalls=true"),
                variant("notification", "-Dperflab.countSyscalls=true")))).isEmpty();
        assertThat(PairedInput.uncounted("instructions_per_req", plan(ExperimentDesign.DUET, variant("monitor"),
                variant("notification")))).as("hardware counters stay on in a duet").isEmpty();
    }
}
