package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialMain;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The paired designs, run with the stand-in trial JVM ({@link FakeTrial}) and once with real trials. */
class PairedDesignTests {

    private static final String CLASSPATH = System.getProperty("java.class.path");
    private static final TrialLauncher FAKE = TrialLauncher.mainClass(CLASSPATH, FakeTrial.class.getName());
    private static final List<String> QUICK_JVM = List.of("-Xmx64m", "-XX:TieredStopAtLevel=1", "-Xshare:auto");
    private static final long FIFTY_MS = TimeUnit.MILLISECONDS.toNanos(50);

    private final List<TrialResult> windows = new CopyOnWriteArrayList<>();
    private final List<PairResult> pairs = new CopyOnWriteArrayList<>();
    private final List<PairPlacement> placements = new CopyOnWriteArrayList<>();
    private final PairListener listener = new PairListener() {
        @Override
        public void pairStarted(int pair, PairPlacement placement) {
            placements.add(placement);
        }

        @Override
        public void windowFinished(TrialResult window) {
            windows.add(window);
        }

        @Override
        public void pairFinished(PairResult pair) {
            pairs.add(pair);
        }
    };

    @Test
    void duetWindowsOfAPairStartWithinFiftyMillisecondsOfEachOther() {
        assumeDuetPossible();
        ExperimentPlan plan = plan(engine("ok"), engine("ok"), 2, ExperimentDesign.DUET, 3);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, PairStoppingRule.NEVER);

        assertThat(outcome.stop()).isEqualTo(PairedOutcome.Stop.COMPLETED);
        assertThat(outcome.results()).hasSize(12).allMatch(TrialResult::ok).isEqualTo(windows);
        for (TrialResult window : windows) {
            assertThat(Math.abs(window.pair().skewNanos())).isLessThan(FIFTY_MS);
        }
        assertSkewIsTheDifferenceOfTheStarts(outcome);
        assertThat(windows).extracting(TrialResult::ordinal).doesNotHaveDuplicates()
                .containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        assertThat(pairs).isEqualTo(outcome.pairs());
        assertThat(pairs.get(0).setup()).isPositive();
        assertThat(pairs.get(0).measuring()).isGreaterThanOrEqualTo(Duration.ofMillis(900));
    }

    @Test
    void aDuetWindowWhoseJvmsStartedTooFarApartIsMeasuredAgain() {
        assumeDuetPossible();
        ExperimentPlan plan = plan(engine("ok"), engine("late-once"), 2, ExperimentDesign.DUET, 2);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, PairStoppingRule.NEVER);

        assertThat(outcome.results()).hasSize(8).allMatch(r -> Math.abs(r.pair().skewNanos()) < FIFTY_MS);
        assertThat(outcome.results()).filteredOn(r -> r.pair().window() == 0)
                .allMatch(r -> r.environment().get("window_attempts").equals("2"));
        assertThat(outcome.results()).filteredOn(r -> r.pair().window() == 1)
                .allMatch(r -> r.environment().get("window_attempts").equals("1"));
    }

    @Test
    void cpuHalvesSwapEveryPairAndTheFirstStartedJvmEverySecondPair() {
        assumeDuetPossible();
        ExperimentPlan plan = plan(engine("ok"), engine("ok"), 4, ExperimentDesign.DUET, 1);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, PairStoppingRule.NEVER);

        CpuList all = CpuList.available(java.util.Optional.empty());
        String low = all.halves().get(0).toString();
        String high = all.halves().get(1).toString();
        assertThat(placements).containsExactly(new PairPlacement(low, high, VariantName.WITHOUT),
                new PairPlacement(high, low, VariantName.WITHOUT), new PairPlacement(low, high, VariantName.WITH),
                new PairPlacement(high, low, VariantName.WITH));
        for (TrialResult window : outcome.results()) {
            PairPlacement placement = placements.get(window.pair().index());
            VariantName variant = VariantName.parse(window.variant());
            assertThat(window.pair().cpus()).isEqualTo(placement.cpus(variant));
            // the JVM's own view of where it may run
            assertThat(window.environment()).containsEntry("cpus_allowed", placement.cpus(variant));
            assertThat(window.pair().startedFirst()).isEqualTo(variant == placement.first());
        }
    }

    @Test
    void aCrashedJvmFailsItsPairOnBothSidesAndTheRunnerGoesOnWithTheNext() {
        assumeDuetPossible();
        ExperimentPlan plan = plan(engine("ok"), engine("crash-window-1"), 2, ExperimentDesign.DUET, 2);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, PairStoppingRule.NEVER);

        assertThat(outcome.stop()).isEqualTo(PairedOutcome.Stop.COMPLETED);
        assertThat(outcome.pairs()).hasSize(2).allMatch(p -> p.status() == TrialStatus.FAILED);
        PairResult first = outcome.pairs().get(0);
        assertThat(first.error()).startsWith("the with JVM: trial JVM exited with status 3")
                .contains("the engine fell over in window 1");
        assertThat(first.results()).hasSize(2).allMatch(r -> r.status() == TrialStatus.FAILED)
                .allMatch(r -> r.pair().index() == 0 && r.pair().window() == null);
        TrialResult without = first.results().stream().filter(r -> r.variant().equals("without")).findFirst()
                .orElseThrow();
        assertThat(without.error()).startsWith("its pair failed: the with JVM");
        // window 0 was measured and told, but is not kept: its pair is incomplete
        assertThat(windows).hasSize(4);
        assertThat(outcome.results()).noneMatch(TrialResult::ok);
        assertNoTrialJvmLeft(outcome);
    }

    @Test
    void moreFailedPairsThanAllowedStopTheExperiment() {
        ExperimentPlan plan = plan(engine("crash"), engine("ok"), 3, ExperimentDesign.ALTERNATING, 1)
                .withMaxFailures(0);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, PairStoppingRule.NEVER);

        assertThat(outcome.stop()).isEqualTo(PairedOutcome.Stop.TOO_MANY_FAILURES);
        assertThat(outcome.pairs()).hasSize(1);
        assertThat(outcome.message()).startsWith("stopped after 1 failed pairs (more than --max-failures 0); "
                + "last failure, pair 0: the without JVM: trial JVM exited with status 3");
    }

    @Test
    void aJvmThatIsNotReadyWithinTheTrialTimeoutTimesOutItsPair() {
        ExperimentPlan plan = plan(engine("ok"), engine("hang"), 2, ExperimentDesign.ALTERNATING, 1)
                .withTrialTimeout(Duration.ofSeconds(4)).withMaxFailures(0);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, PairStoppingRule.NEVER);

        assertThat(outcome.pairs()).singleElement().extracting(PairResult::status).isEqualTo(TrialStatus.TIMED_OUT);
        assertThat(outcome.pairs().get(0).error()).startsWith("the with JVM: the trial JVM did not warm up and say it "
                + "was ready within the trial timeout of 4.0 s (--trial-timeout); killed");
        assertNoTrialJvmLeft(outcome);
    }

    @Test
    void cancellingDuringAPairKillsBothJvmsAndStops() {
        ExperimentPlan plan = plan(engine("hang"), engine("hang"), 3, ExperimentDesign.ALTERNATING, 1);
        ExperimentRunner runner = new ExperimentRunner(FAKE);
        java.util.concurrent.ScheduledExecutorService scheduler =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try {
            scheduler.schedule(runner::cancel, 1, TimeUnit.SECONDS);

            PairedOutcome outcome = runner.runPairs(plan, listener, PairStoppingRule.NEVER);

            assertThat(outcome.stop()).isEqualTo(PairedOutcome.Stop.CANCELLED);
            assertThat(outcome.message()).isEqualTo("cancelled after 1 of 3 pairs");
            assertThat(outcome.pairs()).singleElement().extracting(PairResult::status)
                    .isEqualTo(TrialStatus.CANCELLED);
            assertNoTrialJvmLeft(outcome);
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void theStoppingRuleStopsTheExperimentAndItsReasonIsTheMessage() {
        List<Integer> seen = new ArrayList<>();
        PairStoppingRule rule = done -> {
            seen.add(done.size());
            return done.size() == 2 ? PairStoppingRule.Decision.stop("the change is settled: −3.1 % [−4.0, −2.2]")
                    : PairStoppingRule.Decision.CONTINUE;
        };
        ExperimentPlan plan = plan(engine("ok"), engine("ok"), 5, ExperimentDesign.ALTERNATING, 1);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, rule);

        assertThat(outcome.stop()).isEqualTo(PairedOutcome.Stop.STOPPED_BY_RULE);
        assertThat(outcome.message()).isEqualTo("the change is settled: −3.1 % [−4.0, −2.2]");
        assertThat(outcome.pairs()).hasSize(2);
        assertThat(seen).containsExactly(1, 2);
    }

    @Test
    void alternatingWindowsRunABBAWhileTheIdleJvmIsPaused() {
        ExperimentPlan plan = plan(engine("ok"), engine("ok"), 2, ExperimentDesign.ALTERNATING, 2);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, PairStoppingRule.NEVER);

        assertThat(outcome.stop()).isEqualTo(PairedOutcome.Stop.COMPLETED);
        assertThat(order(outcome.pairs().get(0))).containsExactly("without 0", "with 0", "with 1", "without 1");
        assertThat(order(outcome.pairs().get(1))).containsExactly("with 0", "without 0", "without 1", "with 1");
        assertThat(outcome.results()).allMatch(r -> r.environment().get("was_paused").equals("true"))
                .allMatch(r -> r.pair().skewNanos() == null);
        List<TrialResult> pair = byStart(outcome.pairs().get(0));
        for (int i = 1; i < pair.size(); i++) {
            assertThat(pair.get(i).pair().startNanos()).isGreaterThanOrEqualTo(
                    pair.get(i - 1).pair().startNanos() + TimeUnit.MILLISECONDS.toNanos(300));
        }
    }

    @Test
    void resumingRunsOnlyTheGivenPairsAndTheRuleSeesTheEarlierOnesFirst() {
        ExperimentPlan plan = plan(engine("ok"), engine("ok"), 3, ExperimentDesign.ALTERNATING, 1);
        ExperimentRunner runner = new ExperimentRunner(FAKE);
        PairedOutcome before = runner.runPairs(plan, List.of(0), List.of(), listener, PairStoppingRule.NEVER);
        List<List<Integer>> seen = new ArrayList<>();

        PairedOutcome resumed = new ExperimentRunner(FAKE).runPairs(plan, List.of(2, 1), before.pairs(), listener,
                done -> {
                    seen.add(done.stream().map(PairResult::index).toList());
                    return PairStoppingRule.Decision.CONTINUE;
                });

        assertThat(resumed.pairs()).extracting(PairResult::index).containsExactly(1, 2);
        assertThat(seen).containsExactly(List.of(0, 1), List.of(0, 1, 2));
        assertThat(resumed.results()).extracting(TrialResult::ordinal).containsExactly(3, 2, 4, 5);
        assertThatThrownBy(() -> runner.runPairs(plan, List.of(3), List.of(), listener, PairStoppingRule.NEVER))
                .hasMessage("pair 3 is not in the plan (0..2)");
    }

    @Test
    void aCommandExperimentAlternatesItsRunsABBAWithinEachPair() {
        ExperimentPlan plan = plan(new CommandVariant("true"), new CommandVariant("exit 0"), 2,
                ExperimentDesign.ALTERNATING, 2);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, PairStoppingRule.NEVER);

        assertThat(outcome.stop()).isEqualTo(PairedOutcome.Stop.COMPLETED);
        assertThat(order(outcome.pairs().get(0))).containsExactly("without 0", "with 0", "with 1", "without 1");
        assertThat(order(outcome.pairs().get(1))).containsExactly("with 0", "without 0", "without 1", "with 1");
        assertThat(outcome.results()).allMatch(r -> r.metrics().containsKey(MetricKeys.CPU_MS));
        assertThatThrownBy(() -> plan.withDesign(ExperimentDesign.DUET, 2))
                .hasMessageContaining("a command experiment takes --design fresh or alternating");
    }

    /**
     * Two pairs of real trial JVMs, 0.3 s windows: their windows start within 50 ms of each other on the host's
     * monotonic clock, each JVM runs where it was pinned, and each window measured calls. (On a shared 2-vCPU host
     * under a load average of 10–15 the skews were 2.5–7.8 ms.) The duet leaves system calls uncounted: with both
     * JVMs closing their tracepoint counters at the same instant, one stalled in {@code close()} for over a minute.
     */
    @Test
    void aShortRealDuetMeasuresSynchronizedWindowsOnItsOwnHalf() {
        assumeDuetPossible();
        Workload workload = Workload.DEFAULTS.withClientThreads(2).withServerReactors(1)
                .withWarmup(Warmup.fixed(Duration.ofMillis(500))).withRun(Duration.ofMillis(300));
        EngineVariant variant = EngineVariant.of(EngineOptions.defaults(), workload);
        ExperimentPlan plan = ExperimentPlan.of(variant, variant, 2).withJvmArgs(List.of("-Xmx128m", "-Xshare:auto"))
                .withDesign(ExperimentDesign.DUET, 2);
        TrialLauncher real = TrialLauncher.mainClass(CLASSPATH, TrialMain.class.getName());

        PairedOutcome outcome = new ExperimentRunner(real).runPairs(plan, listener, PairStoppingRule.NEVER);

        assertThat(outcome.stop()).as(outcome.message()).isEqualTo(PairedOutcome.Stop.COMPLETED);
        assertThat(outcome.pairs()).as(() -> String.valueOf(outcome.pairs().get(0).error()))
                .allMatch(PairResult::ok);
        assertThat(outcome.results()).hasSize(8);
        for (TrialResult window : outcome.results()) {
            assertThat(window.environment().get("command")).contains("-Dperflab.countSyscalls=false");
            assertThat(Math.abs(window.pair().skewNanos())).isLessThan(FIFTY_MS);
            assertThat(window.environment()).containsKey("window_start_late_ms");
            assertThat(window.environment()).containsEntry("cpus_allowed", window.pair().cpus())
                    .containsKeys("warmup_evidence", "jvm_version");
            assertThat(window.metrics().get(MetricKeys.CPU_US_PER_REQ)).isPositive();
        }
        assertSkewIsTheDifferenceOfTheStarts(outcome);
    }

    private static void assertSkewIsTheDifferenceOfTheStarts(PairedOutcome outcome) {
        for (PairResult pair : outcome.pairs()) {
            List<TrialResult> with = pair.windows(VariantName.WITH);
            List<TrialResult> without = pair.windows(VariantName.WITHOUT);
            for (int j = 0; j < with.size(); j++) {
                long skew = with.get(j).pair().startNanos() - without.get(j).pair().startNanos();
                assertThat(with.get(j).pair().skewNanos()).isEqualTo(skew);
                assertThat(without.get(j).pair().skewNanos()).isEqualTo(-skew);
            }
        }
    }

    private static void assertNoTrialJvmLeft(PairedOutcome outcome) {
        outcome.results().stream().filter(r -> r.pid() > 0).forEach(r ->
                assertThat(ProcessHandle.of(r.pid()).map(ProcessHandle::isAlive)).isNotEqualTo(
                        java.util.Optional.of(true)));
    }

    private static List<TrialResult> byStart(PairResult pair) {
        return pair.results().stream().sorted(Comparator.comparing(r -> r.pair().startNanos())).toList();
    }

    private static List<String> order(PairResult pair) {
        return byStart(pair).stream().map(r -> r.variant() + " " + r.pair().window()).toList();
    }

    private static void assumeDuetPossible() {
        assumeThat(CpuList.available(java.util.Optional.empty()).cpus().size()).as("CPUs for a duet")
                .isGreaterThanOrEqualTo(2);
        assumeThat(java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "taskset")))).as("taskset on the PATH").isTrue();
    }

    private static ExperimentPlan plan(Variant without, Variant with, int pairs, ExperimentDesign design,
                                       int windowsPerPair) {
        return ExperimentPlan.of(without, with, pairs).withJvmArgs(QUICK_JVM).withDesign(design, windowsPerPair);
    }

    private static EngineVariant engine(String behaviour) {
        return EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS.withRun(Duration.ofMillis(300)))
                .withJvmArgs(List.of("-D" + FakeTrial.BEHAVIOUR + "=" + behaviour));
    }
}
