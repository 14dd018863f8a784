package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.trial.TrialSpec;
import io.perflab.runner.rpcbench.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExperimentPlanTests {

    private static final Workload WORKLOAD = Workload.DEFAULTS.withWarmup(Warmup.fixed(Duration.ofSeconds(2)))
            .withRun(Duration.ofSeconds(3));
    private static final EngineVariant WITHOUT = EngineVariant.of(
            EngineOptions.defaults().withOption("completion", "monitor"), WORKLOAD);
    private static final EngineVariant WITH = EngineVariant.of(EngineOptions.defaults(), WORKLOAD);

    @Test
    void interleavedAlternatesStartingWithTheBaseline() {
        assertThat(ExperimentPlan.of(WITHOUT, WITH, 3).trials()).extracting(PlannedTrial::variant)
                .containsExactly(VariantName.WITHOUT, VariantName.WITH, VariantName.WITHOUT, VariantName.WITH,
                        VariantName.WITHOUT, VariantName.WITH);
    }

    @Test
    void blockedRunsAllOfTheBaselineFirst() {
        assertThat(ExperimentPlan.of(WITHOUT, WITH, 2).withOrder(TrialOrder.BLOCKED).trials())
                .extracting(PlannedTrial::variant)
                .containsExactly(VariantName.WITHOUT, VariantName.WITHOUT, VariantName.WITH, VariantName.WITH);
    }

    @Test
    void randomizedIsBalancedPairsReproducibleFromTheSeed() {
        ExperimentPlan plan = ExperimentPlan.of(WITHOUT, WITH, 20).withOrder(TrialOrder.RANDOMIZED).withSeed(42);
        List<PlannedTrial> trials = plan.trials();

        for (int pair = 0; pair < 20; pair++) {
            assertThat(trials.get(2 * pair).variant()).isNotEqualTo(trials.get(2 * pair + 1).variant());
        }
        assertThat(trials).isEqualTo(plan.trials());
        assertThat(trials).isNotEqualTo(plan.withOrder(TrialOrder.INTERLEAVED).trials());
        assertThat(trials).isNotEqualTo(plan.withSeed(43).trials());
        assertThat(trials).extracting(PlannedTrial::ordinal).containsExactlyElementsOf(
                java.util.stream.IntStream.range(0, 40).boxed().toList());
    }

    @Test
    void defaultTimeoutCoversWarmupRunAndAMinuteOfSetup() {
        assertThat(ExperimentPlan.of(WITHOUT, WITH, 2).trialTimeout()).isEqualTo(Duration.ofSeconds(65));
    }

    @Test
    void rejectsPlansThatCannotGiveAVariance() {
        assertThatThrownBy(() -> ExperimentPlan.of(WITHOUT, WITH, 1)).hasMessage(
                "--runs must be ≥ 2 (a variance needs two trials), got 1");
        assertThatThrownBy(() -> ExperimentPlan.of(WITHOUT, WITH, 2).withMaxFailures(-1))
                .hasMessage("--max-failures must be ≥ 0, got -1");
        assertThatThrownBy(() -> ExperimentPlan.of(WITHOUT, new CommandVariant("true"), 2))
                .hasMessage("both variants must be engine configurations or both commands");
        assertThatThrownBy(() -> TrialOrder.parse("alternating"))
                .hasMessage("--order must be interleaved, randomized or blocked, got 'alternating'");
    }

    /** Twice 1.5 billion trials were an int overflow when the plan listed them (Illegal Capacity). */
    @Test
    void rejectsPlansWhoseTrialsCannotBeCounted() {
        assertThatThrownBy(() -> ExperimentPlan.of(WITHOUT, WITH, 1_500_000_000)).hasMessage(
                "--runs must be at most 1000000, got 1500000000");
        assertThatThrownBy(() -> MultiVariantPlan.of(Map.of("a", WITHOUT, "b", WITH, "c", WITH), 1_000_000_000))
                .hasMessage("--runs must be at most 1000000, got 1000000000");
        assertThat(ExperimentPlan.of(WITHOUT, WITH, ExperimentPlan.MAX_RUNS_PER_VARIANT).trials())
                .hasSize(2 * ExperimentPlan.MAX_RUNS_PER_VARIANT);
    }

    @Test
    void describesItselfForTheExperimentFile() {
        Map<String, Object> described = ExperimentPlan.of(WITHOUT, WITH, 2).describe();

        assertThat(described).containsEntry("runsPerVariant", 2).containsEntry("order", "interleaved")
                .containsEntry("jvmArgs", ExperimentPlan.DEFAULT_JVM_ARGS);
        assertThat(described.get("with").toString()).contains("completion=notification", "mode=sync");
    }

    @Test
    void launcherPutsPlanFlagsBeforeVariantFlagsBeforeTheEntryPoint() {
        TrialLauncher launcher = TrialLauncher.mainClass("a.jar:b.jar", "io.perflab.PerfLabApplication", "trial");
        ExperimentPlan plan = ExperimentPlan.of(WITHOUT, WITH.withJvmArgs(List.of("-XX:+UseG1GC")), 2);

        List<String> command = launcher.command(plan, (EngineVariant) plan.with());

        assertThat(command.get(0)).endsWith("/bin/java");
        assertThat(command.subList(1, 10)).containsExactly("-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch",
                "-XX:+UseSerialGC", "-Xbatch", "-XX:-UseDynamicNumberOfCompilerThreads", "-XX:+UseG1GC", "-cp",
                "a.jar:b.jar");
        assertThat(command.subList(10, 12)).containsExactly("io.perflab.PerfLabApplication", "trial");
        assertThat(command).hasSize(13);
        assertThat(TrialSpec.fromJson(command.get(12))).isEqualTo(((EngineVariant) plan.with()).trialSpec());
    }
}
