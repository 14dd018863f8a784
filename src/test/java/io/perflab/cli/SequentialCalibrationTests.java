package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.paired.PairedFixtures;
import io.perflab.paired.SequentialStopping;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentJson;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.Display;
import io.perflab.stats.SequentialLook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SequentialCalibrationTests extends CommandLineTests {

    @TempDir
    Path directory;

    private static final double[] NOISE = {0.003, -0.002, 0.001, -0.003, 0.002, -0.001, 0.0025, -0.0015};

    private static final SequentialStopping.Target CPU = new SequentialStopping.Target(MetricKeys.CPU_US_PER_REQ, 0);

    /**
     * Sixteen pairs, 20 s apart, of two windows: the first eight with the change 10 % dearer, the last eight the same
     * on both sides, each with a little noise.
     */
    private static List<PairResult> pairs() {
        List<PairResult> pairs = new ArrayList<>();
        for (int p = 0; p < 16; p++) {
            double with = 50 * ((p < 8 ? 1.10 : 1) + NOISE[p % 8]);
            pairs.add(PairedFixtures.pair(p, MetricKeys.CPU_US_PER_REQ, new double[] {50, 50},
                    new double[] {with, with}));
        }
        return pairs;
    }

    private static List<TrialResult> results(List<PairResult> pairs) {
        return pairs.stream().flatMap(p -> p.results().stream()).toList();
    }

    private static EffectCalibration blocksOfEight(long injectedNanos) {
        return new EffectCalibration(ExperimentDesign.ALTERNATING, 2, 8, 0.05, injectedNanos, Map.of(), "test");
    }

    /**
     * The rule that stops {@code perflab ab} fed the pairs of one block as they finish, on a clock that reads each
     * pair's end: where it stops and the last look it made of CPU per call.
     */
    private static SequentialLook stopOf(List<PairResult> block, Optional<Duration> budget, int[] stoppedAt) {
        long[] clock = {0};
        Instant start = block.get(0).start();
        SequentialStopping rule = new SequentialStopping(List.of(CPU), 8, 0.05, budget, () -> clock[0], l -> { });
        for (int i = 0; i < block.size(); i++) {
            clock[0] = Duration.between(start, block.get(i).end()).toNanos();
            PairStoppingRule.Decision decision = rule.afterPair(block.subList(0, i + 1));
            if (decision.stop()) {
                stoppedAt[0] = i + 1;
                break;
            }
        }
        List<List<SequentialStopping.Look>> looks = rule.looks();
        return looks.get(looks.size() - 1).get(0).look();
    }

    /**
     * Each block stops where the rule of {@code perflab ab --target} stops when it is fed the same pairs as they
     * finish: the block of a 10 % change before its eighth pair, settled, with the same repeated interval; the block
     * of no change at its last look.
     */
    @Test
    void eachBlockStopsWhereTheRuleOfAnExperimentStopsOnTheSamePairs() {
        List<PairResult> pairs = pairs();
        SequentialCalibration judged = new SequentialCalibration(blocksOfEight(0), List.of(CPU), Optional.empty());

        List<SequentialCalibration.Experiment> experiments = judged.experiments(results(pairs));

        int[] stoppedAt = {0};
        SequentialLook settled = stopOf(pairs.subList(0, 8), Optional.empty(), stoppedAt);
        assertThat(experiments).hasSize(2);
        SequentialCalibration.Experiment first = experiments.get(0);
        assertThat(first.pairs()).isEqualTo(stoppedAt[0]).isLessThan(8);
        assertThat(first.ending()).contains(SequentialStopping.Ending.SETTLED);
        assertThat(first.reason()).startsWith("every target is settled");
        SequentialLook deciding = first.reported().get(MetricKeys.CPU_US_PER_REQ);
        assertThat(deciding.outcome()).isEqualTo(SequentialLook.Outcome.SIGNIFICANT);
        assertThat(deciding.pairs()).isEqualTo(settled.pairs());
        assertThat(deciding.relativeChange()).isEqualTo(settled.relativeChange());
        assertThat(first.time()).isEqualTo(Duration.ofSeconds(20L * stoppedAt[0]));
        assertThat(first.allPairsTime()).isEqualTo(Duration.ofSeconds(160));

        SequentialCalibration.Experiment second = experiments.get(1);
        assertThat(second.pairs()).isEqualTo(8);
        assertThat(second.reported().get(MetricKeys.CPU_US_PER_REQ).outcome())
                .isEqualTo(SequentialLook.Outcome.LAST_LOOK);
        assertThat(second.time()).isEqualTo(Duration.ofSeconds(160));
    }

    /**
     * A budget of 90 s over pairs of 20 s: α is spent over the 4 pairs the first pair's cost allows, and the block
     * ends after its fourth pair (80 s; a fifth would end at 100 s), as the experiment would have.
     */
    @Test
    void aBudgetEndsEachBlockWhereTheStoredPairsTimesWouldHaveEndedIt() {
        List<PairResult> pairs = pairs();
        Optional<Duration> budget = Optional.of(Duration.ofSeconds(90));
        SequentialCalibration judged = new SequentialCalibration(blocksOfEight(0), List.of(CPU), budget);

        SequentialCalibration.Experiment second = judged.experiments(results(pairs)).get(1);

        int[] stoppedAt = {0};
        SequentialLook last = stopOf(pairs.subList(8, 16), budget, stoppedAt);
        assertThat(second.pairs()).isEqualTo(stoppedAt[0]).isEqualTo(4);
        assertThat(second.ending()).contains(SequentialStopping.Ending.BUDGET);
        assertThat(second.reason()).startsWith("the time budget of 1 min 30 s would be overrun");
        assertThat(second.time()).isEqualTo(Duration.ofSeconds(80));
        SequentialLook deciding = second.reported().get(MetricKeys.CPU_US_PER_REQ);
        assertThat(deciding.informationFraction()).isEqualTo(1.0);
        assertThat(deciding.relativeChange()).isEqualTo(last.relativeChange());
    }

    /**
     * A pair's time runs from the end of the pair before it; the first pair, and one that came hours after the one
     * before it (a file put together from two runs), are given the median lead, here 17 s, before their windows.
     */
    @Test
    void aPairAfterABreakIsGivenTheMedianLeadNotTheHoursBetweenRuns() {
        List<TrialResult> results = new ArrayList<>(results(pairs().subList(0, 4)));
        for (TrialResult r : results(pairs().subList(4, 6))) {
            PairPosition p = r.pair();
            results.add(new TrialResult(r.variant(), r.ordinal(), r.status(), r.start().plusSeconds(7200),
                    r.end().plusSeconds(7200), r.pid(), r.metrics(), r.environment(), r.error(), p));
        }

        List<PairResult> pairs = SequentialCalibration.pairs(results);

        assertThat(pairs).hasSize(6).allSatisfy(p -> assertThat(Duration.between(p.start(), p.end()))
                .isEqualTo(Duration.ofSeconds(20)));
        assertThat(pairs.get(4).start()).isEqualTo(Instant.parse("2025-05-01T12:01:03Z"));
    }

    /**
     * With a smallest change, the report counts the settled experiments that a futile look ended: two blocks of 12
     * pairs where nothing changed (a little noise), each futile for a change of ±5 % once 10 pairs allow it.
     */
    @Test
    void theReportCountsTheExperimentsAFutileLookEnded() {
        List<PairResult> pairs = new ArrayList<>();
        for (int p = 0; p < 24; p++) {
            double with = 50 * (1 + NOISE[p % 8]);
            pairs.add(PairedFixtures.pair(p, MetricKeys.CPU_US_PER_REQ, new double[] {50, 50},
                    new double[] {with, with}));
        }
        EffectCalibration blocks = new EffectCalibration(ExperimentDesign.ALTERNATING, 2, 12, 0.05, 0, Map.of(),
                "test");
        SequentialStopping.Target target = SequentialStopping.Target.parse(MetricKeys.CPU_US_PER_REQ + ":mde=5%");

        String report = new SequentialCalibration(blocks, List.of(target), Optional.empty()).format(results(pairs));

        assertThat(report).contains("--target cpu_us_per_req:mde=5%")
                .contains("stopped: every target settled in 2 (a target futile in 2), the budget in 0, at the last "
                        + "look in 0; pairs used: median 10 (10–10) of 12");
        assertThat(new SequentialCalibration(blocks, List.of(CPU), Optional.empty()).format(results(pairs)))
                .as("without a smallest change nothing is said of futility").doesNotContain("futile");
    }

    /**
     * A/A, CPU per call the target: context switches, no target, are judged as the experiment reports them, by the
     * paired t-test of the pairs run until the stop. Two blocks of 12 pairs, CPU per call unchanged and futile for
     * ±5 % at the 10th pair; context switches 1 % higher on the with side in the first block's first 10 pairs and
     * 4 % lower in its last two (no change over all 12), unchanged in the second block.
     */
    @Test
    void anA2aReportJudgesTheHeadlineMetricsThatAreNoTargetAtTheStop() {
        List<TrialResult> results = new ArrayList<>();
        for (int p = 0; p < 24; p++) {
            double noise = NOISE[p % 8];
            results.addAll(cpuAndContextSwitches(p, 50 * (1 + noise),
                    4 * ((p < 10 ? 1.01 : p < 12 ? 0.96 : 1) + noise / 10)));
        }
        EffectCalibration blocks = new EffectCalibration(ExperimentDesign.ALTERNATING, 2, 12, 0.05, 0, Map.of(),
                "test");
        SequentialStopping.Target target = SequentialStopping.Target.parse(MetricKeys.CPU_US_PER_REQ + ":mde=5%");

        String report = new SequentialCalibration(blocks, List.of(target), Optional.empty()).format(results);

        assertThat(report).contains("pairs used: median 10 (10–10) of 12",
                "the headline metrics that are no target, by the paired t-test of the pairs run until the stop");
        assertThat(report).as("the first block's context switches, significant at its stop, not over its 12 pairs")
                .containsPattern("ctx_switches_per_req +2 +1/2 ")
                .containsPattern("pooled as reported +4 +1/4 ");
        assertThat(blocks.format(results, Duration.ZERO)).as("the fixed-size table: all 12 pairs of each block")
                .containsPattern("ctx_switches_per_req +2 +0/2 ");
    }

    /**
     * Pair {@code p}'s windows with CPU per call and context switches per call: 50 µs and 4 on the without side,
     * {@code cpu} and {@code ctx} on the with side.
     */
    private static List<TrialResult> cpuAndContextSwitches(int p, double cpu, double ctx) {
        List<TrialResult> cpuWindows = PairedFixtures.pair(p, MetricKeys.CPU_US_PER_REQ, new double[] {50, 50},
                new double[] {cpu, cpu}).results();
        List<TrialResult> ctxWindows = PairedFixtures.pair(p, MetricKeys.CTX_SWITCHES_PER_REQ,
                new double[] {4, 4}, new double[] {ctx, ctx}).results();
        List<TrialResult> windows = new ArrayList<>();
        for (int w = 0; w < cpuWindows.size(); w++) {
            TrialResult r = cpuWindows.get(w);
            Map<String, Double> metrics = new java.util.HashMap<>(r.metrics());
            metrics.putAll(ctxWindows.get(w).metrics());
            windows.add(new TrialResult(r.variant(), r.ordinal(), r.status(), r.start(), r.end(), r.pid(),
                    metrics, r.environment(), r.error(), r.pair()));
        }
        return windows;
    }

    /**
     * A target that a look settled while another target stayed open is judged as the experiment's page judges it:
     * by its last look before the stop, whose repeated interval holds the most pairs, not by the look that settled
     * it; the estimate adjusted for stopping stays at that look. One A/A block of 12 pairs: CPU per call futile for
     * ±5 % at the 10th pair, context switches never settled, so the block runs to its 12th.
     */
    @Test
    void aTargetSettledWhileAnotherWasOpenIsJudgedByItsLastLook() {
        List<TrialResult> results = new ArrayList<>();
        for (int p = 0; p < 12; p++) {
            double noise = NOISE[p % 8];
            results.addAll(cpuAndContextSwitches(p, 50 * (1 + noise), 4 * (1 + noise / 10)));
        }
        EffectCalibration block = new EffectCalibration(ExperimentDesign.ALTERNATING, 1, 12, 0.05, 0, Map.of(),
                "test");
        SequentialCalibration judged = new SequentialCalibration(block, List.of(
                SequentialStopping.Target.parse(MetricKeys.CPU_US_PER_REQ + ":mde=5%"),
                SequentialStopping.Target.parse(MetricKeys.CTX_SWITCHES_PER_REQ + ":settled")), Optional.empty());

        SequentialCalibration.Experiment experiment = judged.experiments(results).get(0);

        SequentialLook ended = experiment.ended().get(MetricKeys.CPU_US_PER_REQ);
        SequentialLook last = experiment.reported().get(MetricKeys.CPU_US_PER_REQ);
        assertThat(experiment.pairs()).isEqualTo(12);
        assertThat(ended.outcome()).isEqualTo(SequentialLook.Outcome.FUTILE);
        assertThat(ended.pairs()).isEqualTo(10);
        assertThat(last.pairs()).isEqualTo(12);
        double lastHalfWidth = (last.relativeChange().ciHighPercent() - last.relativeChange().ciLowPercent()) / 2;
        assertThat(lastHalfWidth).isLessThan(
                (ended.relativeChange().ciHighPercent() - ended.relativeChange().ciLowPercent()) / 2);
        assertThat(judged.format(results)).containsPattern("\\ncpu_us_per_req +1 +0/1 .*±"
                + Pattern.quote(EffectCalibration.pp(lastHalfWidth)) + "\\n");
    }

    /** The report: A/A false positives of the rule, the stops, and for a known effect its power and coverage. */
    @Test
    void theReportCountsTheRulesFalsePositivesOrItsPowerAndTheTimeItUsed() {
        List<TrialResult> results = results(pairs());
        String aa = new SequentialCalibration(blocksOfEight(0), List.of(CPU), Optional.empty()).format(results);

        assertThat(aa).contains("judged as sequential ones (perflab ab --pairs 8 --target cpu_us_per_req:settled:")
                .containsPattern("cpu_us_per_req +2 +1/2 +0\\.50 ")
                .contains("stopped: every target settled in 1, the budget in 0, at the last look in 1");

        EffectCalibration injected = new EffectCalibration(ExperimentDesign.ALTERNATING, 2, 8, 0.05, 5000,
                Map.of(MetricKeys.CPU_US_PER_REQ, 10.0), "a long run");
        String effect = new SequentialCalibration(injected, List.of(CPU), Optional.of(Duration.ofMinutes(10)))
                .format(results);

        assertThat(effect).contains("--target cpu_us_per_req:settled --budget 600s")
                .containsPattern("cpu_us_per_req +\\+10\\.00% .* 1/2 .* 1/2 ")
                .contains("power: experiments whose rule called the change significant");
        // beside it, the estimate adjusted for stopping at the same looks: its mean and bias
        double adjusted = new SequentialCalibration(injected, List.of(CPU), Optional.of(Duration.ofMinutes(10)))
                .experiments(results).stream().mapToDouble(e -> e.ended().get(MetricKeys.CPU_US_PER_REQ)
                        .stagewise(0.95).percent()).average().orElseThrow();
        assertThat(effect).containsPattern("\n  adjusted for stopping +" + Pattern.quote(Display.percent(adjusted))
                + " +" + Pattern.quote(String.format(Locale.ROOT, "%+.2f pp", adjusted - 10)) + " ");
    }

    @Test
    void aStoredRunIsJudgedSequentiallyFromTheCommandLine() throws IOException {
        Path file = directory.resolve("run.json");
        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "alternating", "pairs", 16, "windowsPerPair", 2), results(pairs()))));

        int status = execute("calibrate", "--from", file.toString(), "--experiments", "2", "--pairs", "8",
                "--target", "cpu_us_per_req:settled", "--budget", "5m");

        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).contains("A/A calibration, alternating design: 2 experiments of 8 pairs",
                "judged as sequential ones (perflab ab --pairs 8 --target cpu_us_per_req:settled --budget 300s");
        assertRejected("--budget goes with --target", "calibrate", "--from", file.toString(), "--experiments", "2",
                "--pairs", "8", "--budget", "5m");
        assertRejected("--target: ", "calibrate", "--from", file.toString(), "--experiments", "2", "--pairs", "8",
                "--target", "cpu_us_per_req");
        assertRejected("--target: ", "calibrate", "--from", file.toString(), "--experiments", "2", "--pairs", "8",
                "--target", "no_such_metric:settled");
        // a metric of the engine that the stored run did not measure: its looks could not be judged
        assertRejected("--target: instructions_per_req is missing from 64 of the stored run's successful trials, so "
                + "its looks cannot be judged", "calibrate", "--from", file.toString(), "--experiments", "2",
                "--pairs", "8", "--target", "instructions_per_req:settled");
        assertRejected("--budget ", "calibrate", "--from", file.toString(), "--experiments", "2", "--pairs", "8",
                "--target", "cpu_us_per_req:settled", "--budget", "-5m");
        assertRejected("--target applies to --design duet or alternating", "calibrate", "--experiments", "2",
                "--runs", "4", "--target", "cpu_us_per_req:settled");
    }

    /** A run on this host is refused a target on a count the host does not give, before any trial. */
    @Test
    void aRunHereIsRefusedATargetOnACountThisHostDoesNotGive() {
        Optional<String> missing = io.perflab.runner.metering.KernelMeter.hardwareNotCounted();
        org.junit.jupiter.api.Assumptions.assumeTrue(missing.isPresent(), "this host counts instructions");

        assertRejected("--target: cycles_per_req is not counted on this host: " + missing.get(), "calibrate",
                "--experiments", "1", "--pairs", "2", "--target", "cycles_per_req:settled", "--no-fast-start");
        assertThat(out.toString()).doesNotContain("pair 0");
    }

    @Test
    void withNeitherPairsNorTargetCalibrateJudgesTheDefaultExperiment() throws Exception {
        List<PairResult> pairs = new ArrayList<>();
        for (int p = 0; p < 80; p++) {
            double with = 50 * (1 + NOISE[p % 8]);
            pairs.add(PairedFixtures.pair(p, io.perflab.paired.PairedInput.COST_METRICS, new double[] {50, 50},
                    new double[] {with, with}));
        }
        Path file = directory.resolve("aa.json");
        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "alternating", "pairs", 80, "windowsPerPair", 2), results(pairs))));

        int status = execute("calibrate", "--from", file.toString(), "--experiments", "2");

        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).contains("A/A calibration, alternating design: 2 experiments of 40 pairs",
                "judged as sequential ones (perflab ab --pairs 40 --target user_cpu_us_per_req:mde=2% --target "
                        + "sys_cpu_us_per_req:mde=2% --target cpu_us_per_req:mde=2% --target "
                        + "ctx_switches_per_req:mde=2%:");
        out.getBuffer().setLength(0);
        assertThat(execute("calibrate", "--from", file.toString(), "--experiments", "2", "--pairs", "40"))
                .as(err.toString()).isZero();
        assertThat(out.toString()).as("--pairs without --target: the fixed experiment only")
                .contains("2 experiments of 40 pairs").doesNotContain("judged as sequential ones");
    }
}
