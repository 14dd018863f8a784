package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialMain;
import io.perflab.runner.trial.TrialResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An experiment of {@code completion=condvar} against {@code completion=futex} in real trial JVMs: both sides start
 * with the foreign linker's flags (the runner adds them; nobody passed them) and both measure calls.
 */
class FutexTrialTests extends PairedDesignSupport {

    @Test
    void bothSidesOfAFutexExperimentStartWithTheFlagsItNeedsAndMeasure() {
        Workload workload = Workload.DEFAULTS.withClientThreads(2).withServerReactors(1)
                .withWarmup(Warmup.fixed(Duration.ofMillis(500))).withRun(Duration.ofMillis(300));
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "condvar"), workload),
                        EngineVariant.of(Map.of("completion", "futex"), workload), 2)
                .withJvmArgs(List.of("-Xmx128m", "-Xshare:auto")).withDesign(ExperimentDesign.ALTERNATING, 1);
        TrialLauncher real = TrialLauncher.mainClass(CLASSPATH, TrialMain.class.getName());

        PairedOutcome outcome = new ExperimentRunner(real).runPairs(plan, listener, PairStoppingRule.NEVER);

        assertThat(outcome.stop()).as(outcome.message()).isEqualTo(PairedOutcome.Stop.COMPLETED);
        assertThat(outcome.pairs()).as(() -> String.valueOf(outcome.pairs().get(0).error()))
                .allMatch(PairResult::ok);
        assertThat(outcome.results()).hasSize(4);
        for (TrialResult window : outcome.results()) {
            assertThat(window.environment().get("command")).contains(String.join(" ",
                    EngineOptions.builder().completion(EngineOptions.Completion.FUTEX).build().jvmFlags()));
            assertThat(window.metrics().get(MetricKeys.CPU_US_PER_REQ)).isPositive();
        }
    }
}
