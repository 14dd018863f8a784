package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialProtocol;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The paired designs with the stand-in trial JVM ({@link FakeTrial}): failed, hung and cancelled pairs, the stopping
 * rule, resuming, and the alternating order. The duet's timing is {@link DuetDesignTests}.
 */
class PairedDesignTests extends PairedDesignSupport {

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
        // the ok JVM must be ready within the timeout too: at a load average of 17, beside the duet tests in the
        // other test JVM, it once took more than 4 s
        ExperimentPlan plan = plan(engine("ok"), engine("hang"), 2, ExperimentDesign.ALTERNATING, 1)
                .withTrialTimeout(Duration.ofSeconds(8)).withMaxFailures(0);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, PairStoppingRule.NEVER);

        assertThat(outcome.pairs()).singleElement().extracting(PairResult::status).isEqualTo(TrialStatus.TIMED_OUT);
        assertThat(outcome.pairs().get(0).error()).startsWith("the with JVM: the trial JVM did not warm up and say so "
                + "within the trial timeout of 8.0 s (--trial-timeout); killed");
        assertThat(outcome.pairs().get(0).results()).extracting(TrialResult::error)
                .containsExactlyInAnyOrder("its pair failed: " + TrialOutput.firstLine(outcome.pairs().get(0).error()),
                        outcome.pairs().get(0).error());
        assertNoTrialJvmLeft(outcome);
    }

    @Test
    void twoJvmsLateTogetherAreBothNamed() {
        ExperimentPlan plan = plan(engine("hang"), engine("hang"), 2, ExperimentDesign.DUET, 1)
                .withTrialTimeout(Duration.ofSeconds(2)).withMaxFailures(0);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, PairStoppingRule.NEVER);

        PairResult pair = outcome.pairs().get(0);
        assertThat(pair.status()).isEqualTo(TrialStatus.TIMED_OUT);
        assertThat(pair.error()).isEqualTo("both JVMs: neither trial JVM did warm up and say so within the trial "
                + "timeout of 2.0 s (--trial-timeout); killed");
        assertThat(pair.results()).extracting(TrialResult::error)
                .allSatisfy(error -> assertThat(error).startsWith(pair.error()));
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
            // the pair cut short is not stored, where it said "after 1 of 3"
            assertThat(outcome.message()).isEqualTo("cancelled after 0 of 3 pairs");
            assertThat(outcome.pairs()).singleElement().extracting(PairResult::status)
                    .isEqualTo(TrialStatus.CANCELLED);
            assertNoTrialJvmLeft(outcome);
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void aCancelWhileTheJvmsExitAfterTheirWindowsKeepsThePairItMeasured() {
        // the JVMs take 3 s to exit; the cancel comes 300 ms after the pair's last window, and kills them (137)
        ExperimentPlan plan = plan(engine("slow-exit"), engine("slow-exit"), 3, ExperimentDesign.ALTERNATING, 1);
        ExperimentRunner runner = new ExperimentRunner(FAKE);
        java.util.concurrent.ScheduledExecutorService scheduler =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        PairListener cancelAfterTheWindows = new PairListener() {
            @Override
            public void windowFinished(TrialResult window) {
                listener.windowFinished(window);
                if (windows.size() == 2) {
                    scheduler.schedule(runner::cancel, 300, TimeUnit.MILLISECONDS);
                }
            }

            @Override
            public void pairFinished(PairResult pair) {
                listener.pairFinished(pair);
            }
        };
        try {
            PairedOutcome outcome = runner.runPairs(plan, cancelAfterTheWindows, PairStoppingRule.NEVER);

            assertThat(outcome.stop()).isEqualTo(PairedOutcome.Stop.CANCELLED);
            PairResult pair = outcome.pairs().get(0);
            assertThat(pair.status()).as(String.valueOf(pair.error())).isEqualTo(TrialStatus.OK);
            assertThat(pair.results()).hasSize(2).allSatisfy(r -> assertThat(r.ok()).isTrue());
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
        for (TrialResult r : outcome.results()) {
            double probe = r.metrics().get(MetricKeys.HOST_PROBE_NS);
            assertThat(probe).as("the host's speed in a 300 ms window").isPositive().isLessThan(1e6);
            assertThat(r.metrics().get(MetricKeys.HOST_PROBE_SYSCALL_NS)).as("the system call's figure beside it")
                    .isPositive().isLessThan(1e6);
            assertThat(r.metrics().get(MetricKeys.CPU_US_PER_REQ_ADJ))
                    .isCloseTo(r.metrics().get(MetricKeys.CPU_US_PER_REQ) * 1000 / probe, within(1e-9));
            assertThat(r.metrics().get(MetricKeys.REQS_PER_SEC_ADJ)).isCloseTo(1000.0 * probe / 1000, within(1e-9));
        }
        List<TrialResult> pair = byStart(outcome.pairs().get(0));
        for (int i = 1; i < pair.size(); i++) {
            assertThat(pair.get(i).pair().startNanos()).isGreaterThanOrEqualTo(
                    pair.get(i - 1).pair().startNanos() + TimeUnit.MILLISECONDS.toNanos(300));
        }
    }

    /**
     * Each JVM's first window is disturbed — one starts it 200 ms late (the tolerance of a 300 ms window is 50 ms),
     * the other reports CPU per call below zero — so each is paused and measured again; the rest once (on an idle
     * machine).
     */
    @Test
    void anAlternatingWindowThatStartedLateOrMeasuredBelowZeroIsMeasuredAgain() {
        ExperimentPlan plan = plan(engine("late-once"), engine("negative-once"), 2, ExperimentDesign.ALTERNATING, 2);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, PairStoppingRule.NEVER);

        assertThat(outcome.stop()).isEqualTo(PairedOutcome.Stop.COMPLETED);
        assertThat(outcome.results()).hasSize(8).allMatch(TrialResult::ok)
                .allMatch(r -> r.metrics().get(MetricKeys.CPU_US_PER_REQ) > 0)
                .allMatch(r -> r.environment().get("was_paused").equals("true"));
        // A retry may itself start late on a loaded machine (the tolerance is 50 ms), so: every first window was
        // measured again, and the windows that nothing disturbed were not, unless the machine delayed them all.
        assertThat(outcome.results()).filteredOn(r -> r.pair().window() == 0)
                .allMatch(r -> Integer.parseInt(r.environment().get("window_attempts")) >= 2);
        assertThat(outcome.results()).filteredOn(r -> r.pair().window() == 1)
                .anyMatch(r -> r.environment().get("window_attempts").equals("1"));
    }

    /**
     * A window still below zero after its attempts was kept as measured, a CPU per call of −30 µs in the results (and
     * refused by the service when an agent posted it); it now fails its pair, which the runner counts and goes past.
     */
    @Test
    void aWindowBelowZeroInEachAttemptFailsItsPairRatherThanBeingKept() {
        ExperimentPlan plan = plan(engine("ok"), engine("negative-always"), 2, ExperimentDesign.ALTERNATING, 1);

        PairedOutcome outcome = new ExperimentRunner(FAKE).runPairs(plan, listener, PairStoppingRule.NEVER);

        assertThat(outcome.pairs()).hasSize(2).allMatch(p -> p.status() == TrialStatus.FAILED);
        assertThat(outcome.pairs().get(0).error()).startsWith("the with JVM: window 0 measured cpu_us_per_req below "
                + "zero (-").contains("in each of its " + (PairRunner.WINDOW_RETRIES + 1) + " attempts");
        assertThat(outcome.results()).noneMatch(TrialResult::ok);
        assertNoTrialJvmLeft(outcome);
    }

    @Test
    void aWindowIsDisturbedWhenItStartedLateOrAFigureIsBelowZero() {
        TrialProtocol.Window onTime = new TrialProtocol.Window(0, 1_040, 2_000, Map.of("cpu_us_per_req", 30.0),
                Map.of());
        assertThat(PairRunner.disturbed(onTime, 1_000, 50)).isFalse();
        assertThat(PairRunner.disturbed(onTime, 989, 50)).as("51 ns late, 50 tolerated").isTrue();
        assertThat(PairRunner.disturbed(new TrialProtocol.Window(0, 1_000, 2_000, Map.of("cpu_us_per_req", 30.0,
                "involuntary_ctx_switches_per_req", -0.8), Map.of()), 1_000, 50)).isTrue();
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
        assertThat(outcome.results()).as("a run this short may hold too few probe samples, never a wrong one")
                .allMatch(r -> !r.metrics().containsKey(MetricKeys.HOST_PROBE_NS)
                        || r.metrics().get(MetricKeys.HOST_PROBE_NS) > 0);
        assertThatThrownBy(() -> plan.withDesign(ExperimentDesign.DUET, 2))
                .hasMessageContaining("a command experiment takes --design fresh or alternating");
    }
}
