package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.perflab.runner.experiment.ExperimentJson;
import io.perflab.runner.rpcbench.RpcBenchResult;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.stats.Proportion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CalibrateCommandTests extends CommandLineTests {

    @TempDir
    Path directory;

    /** Interleaved without/with pairs: experiment 0 shows a large change, experiment 1 none. */
    private static final double[] WITHOUT = {10, 10.1, 9.9, 10, 10.1, 9.9};
    private static final double[] WITH = {12, 12.1, 11.9, 10.3, 10.2, 9.8};

    @Test
    void countsTheBlocksWhereWelchCallsADifferenceAndMeasuresTheSpread() {
        List<TrialResult> trials = trials(WITHOUT, WITH);
        trials.add(new TrialResult("with", 12, TrialStatus.FAILED, null, null, 1, Map.of(), Map.of(), "crashed"));

        List<Calibration.MetricCalibration> rows = new Calibration(2, 3, 0.05, 40).analyze(trials);

        assertThat(rows).singleElement().satisfies(row -> {
            // R 4.2.2: t.test(c(12,12.1,11.9), c(10,10.1,9.9))$p.value = 1.648e-05; t.test(c(10.3,10.2,9.8),
            // c(10,10.1,9.9))$p.value = 0.59; binom.test(1, 2)$conf.int = [0.01257911709, 0.98742088291]
            assertThat(row.metric()).isEqualTo(MetricKeys.USER_CPU_US_PER_REQ);
            assertThat(row.falsePositives().trials()).isEqualTo(2);
            assertThat(row.falsePositives().successes()).isEqualTo(1);
            assertThat(row.falsePositives().low()).isCloseTo(0.01257911709, within(1e-9));
            assertThat(row.falsePositives().high()).isCloseTo(0.98742088291, within(1e-9));
            assertThat(row.floorPercent()).isNaN();
            // R: a <- c(WITHOUT, WITH); sd(a)/mean(a) = 8.557065006 %;
            // 100 * (qt(0.975, 78) + qt(0.8, 78)) * sd(a) * sqrt(2/40) / mean(a) = 5.42855951
            assertThat(row.mean()).isCloseTo(10.525, within(1e-12));
            assertThat(row.cv() * 100).isCloseTo(8.557065006, within(1e-8));
            assertThat(row.mdePercent()).isCloseTo(5.42855951, within(1e-7));
        });
    }

    @Test
    void noFalsePositiveGivesAnIntervalFromZero() {
        double[] same = {10, 10.1, 9.9, 10, 10.1, 9.9};
        Calibration.MetricCalibration row = new Calibration(2, 3, 0.05, 40).analyze(trials(same, same)).get(0);

        assertThat(row.falsePositives().successes()).isZero();
        assertThat(row.falsePositives().low()).isZero();
        // R: binom.test(0, 2)$conf.int[2] = 0.8418861
        assertThat(row.falsePositives().high()).isCloseTo(0.8418861, within(1e-7));
    }

    @Test
    void floorIsTheMedianSamplingErrorTheTrialsRecorded() {
        List<TrialResult> trials = new ArrayList<>();
        double[] floors = {4.1, 5.0, 4.4, 9.9};
        for (int i = 0; i < floors.length; i++) {
            trials.add(new TrialResult(i % 2 == 0 ? "without" : "with", i, TrialStatus.OK, null, null, 1,
                    Map.of(MetricKeys.USER_CPU_US_PER_REQ, 10.0 + i, MetricKeys.SYS_CPU_US_PER_REQ, 40.0 - i),
                    Map.of("cpu_time_accounting", "tick 250 Hz",
                            RpcBenchResult.USER_SAMPLING_ERROR, Double.toString(floors[i]),
                            RpcBenchResult.SYS_SAMPLING_ERROR, "0.9"), null));
        }
        Calibration calibration = new Calibration(1, 2, 0.05, 40);

        List<Calibration.MetricCalibration> rows = calibration.analyze(trials);

        assertThat(rows).extracting(Calibration.MetricCalibration::floorPercent).containsExactly(4.7, 0.9);
        assertThat(calibration.format(trials, Duration.ofSeconds(20))).contains("4.70%", "0.90%",
                "floor: the CV that the kernel's split of user from system time gives by itself (it samples the "
                        + "split at each timer tick: tick 250 Hz)");
    }

    @Test
    void sampledTrialsAlsoCalibrateTheTickSplitOfTheSameWindows() {
        // sampled user CPU 10, 10.6, 10.4, 11 (sd 0.416); the tick split of the same windows 8, 12, 9, 13 (sd 2.38)
        double[] sampled = {10, 10.6, 10.4, 11};
        double[] ticked = {8, 12, 9, 13};
        List<TrialResult> trials = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            trials.add(new TrialResult(i % 2 == 0 ? "without" : "with", i, TrialStatus.OK, null, null, 1,
                    Map.of(MetricKeys.USER_CPU_US_PER_REQ, sampled[i]),
                    Map.of(RpcBenchResult.TICK_USER_CPU_US_PER_REQ, Double.toString(ticked[i])), null));
        }

        List<Calibration.MetricCalibration> rows = new Calibration(1, 2, 0.05, 40).analyze(trials);

        assertThat(rows).extracting(Calibration.MetricCalibration::metric)
                .containsExactly(MetricKeys.USER_CPU_US_PER_REQ, RpcBenchResult.TICK_USER_CPU_US_PER_REQ);
        assertThat(rows.get(0).cv()).isCloseTo(Math.sqrt(0.52 / 3) / 10.5, within(1e-12));
        assertThat(rows.get(1).cv()).isCloseTo(Math.sqrt(17.0 / 3) / 10.5, within(1e-12));
        assertThat(rows.get(1).mdePercent()).isGreaterThan(3 * rows.get(0).mdePercent());
        // the tick split's longer name widens the metric column: every row's columns stay in line
        List<String> lines = new Calibration(1, 2, 0.05, 40).format(trials, Duration.ofSeconds(4)).lines()
                .filter(line -> line.startsWith("metric ") || line.contains("_per_req ")).toList();
        assertThat(lines).hasSize(3);
        int cvEnds = lines.get(0).indexOf(" CV ") + 3;
        assertThat(lines.subList(1, 3)).allSatisfy(row -> assertThat(row.substring(cvEnds - 1, cvEnds + 1))
                .as(String.join("\n", lines)).isEqualTo("% "));
    }

    @Test
    void reportNamesTheTargetAndTheTimeOfAFullExperiment() {
        String report = new Calibration(2, 3, 0.05, 40).format(trials(WITHOUT, WITH), Duration.ofSeconds(60));

        assertThat(report).contains("A/A calibration: 2 experiments of 3 + 3 trials", "user_cpu_us_per_req",
                "1/2", "0.50", "[0.013, 0.987]", "no", "8.56%", "5.43%",
                "12 trials in 1 min 00 s (5.0 s per trial, process start included): an experiment of 40 + 40 "
                        + "trials takes about 6 min 40 s.");
    }

    /**
     * The "≤ 0.1" column said "yes" of 0 false positives in 2 experiments, whose interval reaches 0.84, and the footer
     * did not say what it meant. It says yes only when the interval's upper end is within 0.1, "too few" when the
     * rate is but the interval is not, and the footer says so.
     */
    @Test
    void theTargetColumnSaysYesOnlyWhenTheIntervalShowsTheRateWithinTheTarget() {
        double[] same = {10, 10.1, 9.9, 10, 10.1, 9.9};
        String report = new Calibration(2, 3, 0.05, 40).format(trials(same, same), Duration.ofSeconds(60));

        String row = report.lines().filter(line -> line.startsWith("user_cpu_us_per_req ")).findFirst().orElseThrow();
        assertThat(row).contains("0/2", "0.00", "[0.000, 0.842]", "too few").doesNotContain("yes");
        assertThat(report).contains("≤ 0.1: is the false-positive rate within 0.1? yes when its 95 % CI lies at or "
                + "below 0.1; too few when the rate is at most 0.1 but its CI reaches above (too few experiments to "
                + "show it: with no false positive that takes 36); no when the rate itself is above 0.1.");

        // R: binom.test(0, 35)$conf.int[2] = 0.1000324356, binom.test(0, 36)$conf.int[2] = 0.09739375591,
        // binom.test(1, 56)$conf.int[2] = 0.0955259026, binom.test(6, 50)$conf.int = [0.0453353208, 0.2431013167]
        assertThat(Calibration.FEWEST_TO_SHOW_TARGET).isEqualTo(36);
        assertThat(Calibration.withinTarget(Proportion.clopperPearson(0, 35, 0.95))).isEqualTo("too few");
        assertThat(Calibration.withinTarget(Proportion.clopperPearson(0, 36, 0.95))).isEqualTo("yes");
        assertThat(Calibration.withinTarget(Proportion.clopperPearson(1, 56, 0.95))).isEqualTo("yes");
        assertThat(Calibration.withinTarget(Proportion.clopperPearson(5, 50, 0.95))).isEqualTo("too few");
        assertThat(Calibration.withinTarget(Proportion.clopperPearson(6, 50, 0.95))).isEqualTo("no");
    }

    @Test
    void runsAaExperimentsInFreshJvms() throws IOException {
        Path file = directory.resolve("aa.json");

        int status = execute("calibrate", "--experiments", "1", "--runs", "2", "--client-threads", "2",
                "--server-reactors", "1", "--warmup-seconds", "0.2", "--run-seconds", "0.5",
                "--set", "completion=monitor", "--out", file.toString(),
                // without -Xbatch: on a loaded machine a thread that waits for its compilation may complete no
                // call at all in so short a window; the client compiler only: half the CPU of a trial JVM's start
                "--jvm-args", "-Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");

        assertThat(status).as(err.toString()).isZero();
        List<TrialResult> trials = ExperimentJson.readTrials(Files.readString(file));
        assertThat(trials).hasSize(4).allMatch(TrialResult::ok);
        assertThat(trials).allSatisfy(t -> assertThat(t.environment().get("engine_options"))
                .contains("completion=monitor"));
        assertThat(trials).allSatisfy(t -> assertThat(t.environment()).containsKey("cpu_time_accounting"));
        assertThat(out.toString()).contains("A/A calibration: 1 experiments of 2 + 2 trials", "user_cpu_us_per_req",
                "ctx_switches_per_req", "an experiment of 40 + 40 trials takes about");
    }

    /**
     * Two experiments of three pairs whose change is +2 % ± 0.3 %, the injected 1 µs per call on a baseline of
     * 50 µs: the reference is +2 %, both intervals cover it, both detect it.
     */
    @Test
    void aKnownEffectIsReportedWithItsReferenceBiasCoverageAndPower() {
        double[] noise = {0.003, -0.002, 0.001, -0.003, 0.002, -0.001};
        List<TrialResult> results = new ArrayList<>();
        for (int p = 0; p < 6; p++) {
            double with = 50 * (1.02 + noise[p]);
            results.addAll(io.perflab.paired.PairedFixtures.pair(p, MetricKeys.CPU_US_PER_REQ,
                    new double[] {50, 50}, new double[] {with, with}).results());
        }
        EffectCalibration calibration = new EffectCalibration(io.perflab.runner.experiment.ExperimentDesign.DUET, 2,
                3, 0.05, 1000, Map.of(), "the injected 1000 ns per call");

        String report = calibration.format(results, Duration.ofMinutes(4));

        assertThat(calibration.referenceOf(MetricKeys.CPU_US_PER_REQ, results)).isCloseTo(2.0, within(1e-12));
        assertThat(calibration.estimates(results, MetricKeys.CPU_US_PER_REQ)).hasSize(2);
        assertThat(report).contains("Known-effect calibration, duet design: 2 experiments of 3 pairs",
                "serverWorkNanos=1000 injected on the with side")
                .containsPattern("cpu_us_per_req +\\+2\\.00% +\\+2\\.0\\d% +[+-]0\\.0\\d pp +2/2 .* 2/2 ")
                .contains("reference: the injected 1000 ns per call", "about 2 min 00 s per experiment")
                .as("the two experiments measured one effect").contains("same effect", "p = 0.5518")
                .as("no window recorded what its injected work cost").doesNotContain("injected cost as measured");
    }

    /**
     * Two experiments of eight pairs of a +2 % effect, each with one window 40 % off (a host that slowed): the
     * t-test of the pairs' means misses it in both (that pair's mean spreads the pairs), the robust check finds it in
     * both, and the report gives each its own table.
     */
    @Test
    void aPairedRunIsAlsoJudgedByTheRobustCheckInATableOfItsOwn() {
        double[] noise = {0.003, -0.002, 0.001, -0.003, 0.002, -0.001, 0.0025, -0.0015};
        List<TrialResult> results = new ArrayList<>();
        for (int p = 0; p < 16; p++) {
            double with = 50 * (1.02 + noise[p % 8]);
            double far = p % 8 == 5 ? 50 * 1.40 : with;
            results.addAll(io.perflab.paired.PairedFixtures.pair(p, MetricKeys.CPU_US_PER_REQ,
                    new double[] {50, 50}, new double[] {with, far}).results());
        }
        EffectCalibration calibration = new EffectCalibration(io.perflab.runner.experiment.ExperimentDesign.ALTERNATING,
                2, 8, 0.05, 1000, Map.of(), "the injected 1000 ns per call");

        String report = calibration.format(results, Duration.ofMinutes(4));

        List<EffectCalibration.Estimate> robust = calibration.estimates(results, MetricKeys.CPU_US_PER_REQ,
                EffectCalibration.Judgement.ROBUST);
        assertThat(robust).hasSize(2).allSatisfy(e -> assertThat(e.pValue()).isEqualTo(2.0 / 256));
        assertThat(calibration.estimates(results, MetricKeys.CPU_US_PER_REQ))
                .allSatisfy(e -> assertThat(e.pValue()).isGreaterThan(0.05));
        int robustTable = report.indexOf("The robust check of the same experiments");
        assertThat(robustTable).isPositive();
        assertThat(report.substring(0, robustTable)).containsPattern("cpu_us_per_req .* 0/2 ");
        assertThat(report.substring(robustTable)).containsPattern("cpu_us_per_req .* 2/2 ");
    }

    /**
     * Two experiments of three pairs that measured different effects, +2 % and +8 %: the analysis of variance of
     * their pairs' log ratios by experiment says so (SciPy's f_oneway: F = 813.6455398339772,
     * p = 8.989399570211634e-06), and the report prints it; fresh trials have no pairs to compare.
     */
    @Test
    void aKnownEffectThatMovedBetweenExperimentsIsShownAsNotTheSame() {
        double[] noise = {0.003, -0.002, 0.001, -0.003, 0.002, -0.001};
        List<TrialResult> results = new ArrayList<>();
        for (int p = 0; p < 6; p++) {
            double with = 50 * ((p < 3 ? 1.02 : 1.08) + noise[p]);
            results.addAll(io.perflab.paired.PairedFixtures.pair(p, MetricKeys.CPU_US_PER_REQ,
                    new double[] {50, 50}, new double[] {with, with}).results());
        }
        EffectCalibration calibration = new EffectCalibration(io.perflab.runner.experiment.ExperimentDesign.DUET, 2,
                3, 0.05, 1000, Map.of(), "the injected 1000 ns per call");

        double p = EffectCalibration.sameEffectPValue(calibration.estimates(results, MetricKeys.CPU_US_PER_REQ));

        assertThat(p).isCloseTo(8.989399570211634e-06, within(1e-10 * 8.989399570211634e-06));
        assertThat(calibration.format(results, Duration.ofMinutes(4))).contains("p = 8.989e-06");
        EffectCalibration.Estimate fresh = new EffectCalibration.Estimate(2, 1, 3, 0.01, 1.5, List.of());
        assertThat(EffectCalibration.sameEffectPValue(List.of(fresh, fresh))).isNaN();
    }

    /** The with side's windows record what their calls that timed themselves spun; the report sets it beside N. */
    @Test
    void aKnownEffectReportsTheInjectedCostTheWindowsMeasured() {
        double[] measured = {990, 1012, 1004, 995, 1200, 1000};
        List<TrialResult> results = new ArrayList<>();
        for (int p = 0; p < 6; p++) {
            for (TrialResult r : io.perflab.paired.PairedFixtures.pair(p, MetricKeys.CPU_US_PER_REQ,
                    new double[] {50}, new double[] {51}).results()) {
                Map<String, String> environment = r.variant().equals("with")
                        ? Map.of("server_work_measured_nanos", Double.toString(measured[p]))
                        : Map.of();
                results.add(new TrialResult(r.variant(), r.ordinal(), r.status(), r.start(), r.end(), r.pid(),
                        r.metrics(), environment, r.error(), r.pair()));
            }
        }
        EffectCalibration calibration = new EffectCalibration(io.perflab.runner.experiment.ExperimentDesign.ALTERNATING,
                2, 3, 0.05, 1000, Map.of(), "the injected 1000 ns per call");

        // R: quantile(c(990, 1012, 1004, 995, 1200, 1000)) gives 990, 996.25, 1002, 1010, 1200
        assertThat(calibration.format(results, Duration.ofMinutes(4))).contains("injected cost as measured by the "
                + "with side's calls that time themselves (one in 64, on the thread CPU clock): 1002 ns per call, the "
                + "median of 6 windows' medians (quartiles 996–1010, range 990–1200), against the 1000 ns asked.");
    }

    /** A window whose measured cost is no number (a file edited by hand) was a NumberFormatException, status 70. */
    @Test
    void aMeasuredInjectionThatIsNoNumberIsLeftOut() {
        List<TrialResult> results = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            for (TrialResult r : io.perflab.paired.PairedFixtures.pair(p, MetricKeys.CPU_US_PER_REQ,
                    new double[] {50}, new double[] {51}).results()) {
                results.add(new TrialResult(r.variant(), r.ordinal(), r.status(), r.start(), r.end(), r.pid(),
                        r.metrics(), Map.of("server_work_measured_nanos", p == 0 ? "n/a" : "1003"), r.error(),
                        r.pair()));
            }
        }
        EffectCalibration calibration = new EffectCalibration(io.perflab.runner.experiment.ExperimentDesign.ALTERNATING,
                1, 2, 0.05, 1000, Map.of(), "the injected 1000 ns per call");

        assertThat(calibration.measuredInjection(results)).contains("1003 ns per call, the median of 1 windows'");
    }

    @Test
    void anAaRunOfAPairedDesignCountsFalsePositivesPerExperiment() {
        List<TrialResult> results = new ArrayList<>();
        double[] noise = {0.003, -0.002, 0.001, -0.003, 0.002, -0.001};
        for (int p = 0; p < 6; p++) {
            results.addAll(io.perflab.paired.PairedFixtures.pair(p, MetricKeys.CPU_US_PER_REQ,
                    new double[] {50, 50}, new double[] {50 * (1 + noise[p]), 50 * (1 + noise[p])}).results());
        }

        String report = new EffectCalibration(io.perflab.runner.experiment.ExperimentDesign.ALTERNATING, 2, 3, 0.05,
                0, Map.of(), "").format(results, Duration.ofMinutes(2));

        // the MDE, SciPy: mean over the two experiments of 100 * expm1((t.ppf(0.975, 2) + t.ppf(0.8, 2)) *
        // stdev(log1p(noise)) / sqrt(3)) = (0.78199 + 0.78265) / 2
        assertThat(report).contains("A/A calibration, alternating design: 2 experiments of 3 pairs",
                "the same variant on both sides").containsPattern("cpu_us_per_req +2 +0/2 +0\\.00 "
                + "\\[0\\.000, 0\\.842\\] +±\\d+\\.\\d\\d pp +±0\\.78 pp\n");
    }

    /**
     * Two A/A experiments of four pairs of three windows: in the first the with side's CPU per call falls 3 % per
     * window while the without side's does not; in the second both fall alike. One caveat, on that metric. (The
     * first experiment's pairs differ in their mean log ratio, so that the analysis compares the metric: a metric it
     * cannot compare is not judged for warmup either.)
     */
    @Test
    void anAaRunOfAPairedDesignCountsTheExperimentsWhoseVariantsWarmedUpDifferently() {
        double[] noise = {0.004, -0.003, 0.002, -0.004, 0.003, -0.002, 0.001, -0.001};
        List<TrialResult> results = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
            double n = noise[p];
            double[] without = p < 4 ? new double[] {50 * (1 + n), 50 * (1 + n), 50 * (1 - n)}
                    : new double[] {50, 48.5 * (1 + n), 47};
            double[] with = {50, 48.5 * (1 - n), 47 * (1 + n)};
            results.addAll(io.perflab.paired.PairedFixtures.pair(p, MetricKeys.CPU_US_PER_REQ, without, with)
                    .results());
        }

        String report = new EffectCalibration(io.perflab.runner.experiment.ExperimentDesign.ALTERNATING, 2, 4, 0.05,
                0, Map.of(), "").format(results, Duration.ofMinutes(2));

        assertThat(report).contains("warmup: 1 of 2 experiments carried the caveat that their variants warmed up "
                + "differently across the windows (cpu_us_per_req 1); in an A/A run every one is a false alarm.");
    }

    /**
     * Two experiments of three pairs with the four pooled metrics: the first sees user CPU up 20 %, the second
     * nothing; one false positive in eight tests.
     */
    @Test
    void anAaRunPoolsTheFalsePositivesOfTheCpuAndContextSwitchFigures() {
        String report = new EffectCalibration(io.perflab.runner.experiment.ExperimentDesign.ALTERNATING, 2, 3, 0.05,
                0, Map.of(), "").format(fourMetricPairs(), Duration.ofMinutes(2));

        // R: binom.test(1, 8)$conf.int = [0.003159724, 0.526509671]
        assertThat(report).containsPattern("user_cpu_us_per_req +2 +1/2 ")
                .containsPattern("pooled \\(CPU, ctxsw\\) +8 +1/8 +0\\.13 \\[0\\.003, 0\\.527\\]");
    }

    @Test
    void aStoredRunIsJudgedAgainFromItsFile() throws IOException {
        Path file = directory.resolve("aa-alternating.json");
        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "alternating", "pairs", 6, "windowsPerPair", 2), fourMetricPairs())));

        int status = execute("calibrate", "--from", file.toString(), "--experiments", "2", "--pairs", "3");

        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).contains("A/A calibration, alternating design: 2 experiments of 3 pairs")
                .containsPattern("pooled \\(CPU, ctxsw\\) +8 +1/8 ");
        assertRejected("holds a plan of 6 pairs, not --experiments 3 × --pairs 3 = 9", "calibrate", "--from",
                file.toString(), "--experiments", "3", "--pairs", "3");
        assertRejected("--from " + directory.resolve("none.json") + ": no such file", "calibrate", "--from",
                directory.resolve("none.json").toString(), "--experiments", "2", "--pairs", "3");
        Path solo = directory.resolve("solo.json");
        Files.writeString(solo, "{\"experiment\": {\"design\": \"solo\", \"pairs\": 6}, \"trials\": []}");
        assertRejected("its plan's design 'solo' is none of fresh, duet, alternating", "calibrate", "--from",
                solo.toString(), "--experiments", "2", "--pairs", "3");
        Files.writeString(file, "{\"trials\": 3}");
        assertRejected("--from " + file + ": not an experiment file of perflab ab --out", "calibrate", "--from",
                file.toString(), "--experiments", "2", "--pairs", "3");
    }

    /**
     * An ab run of a real change judged as an A/A counted the change's effect as false positives and as the
     * instrument's noise ("the same variant on both sides"); a known-effect run needs --inject of its own cost.
     */
    @Test
    void aStoredRunOfTwoDifferentVariantsIsNotJudgedAsAnAaRun() throws IOException {
        Path file = directory.resolve("ab.json");
        Map<String, Object> without = side("notification", null);
        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "alternating", "pairs", 6, "windowsPerPair", 2, "without", without,
                        "with", side("monitor", null)), fourMetricPairs())));
        assertRejected("--from " + file + " is not a run of one variant against itself: its sides differ in "
                + "engineOptions.completion (notification without, monitor with); calibrate judges A/A runs",
                "calibrate", "--from", file.toString(), "--experiments", "2", "--pairs", "3");

        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "alternating", "pairs", 6, "windowsPerPair", 2, "without", without,
                        "with", side("notification", "1700")), fourMetricPairs())));
        assertRejected("--from " + file + ": its with side's serverWorkNanos is 1700 ns above the without side's, "
                + "so it is a known-effect run: add --inject serverWorkNanos=1700", "calibrate", "--from",
                file.toString(), "--experiments", "2", "--pairs", "3");
        assertRejected("--from " + file + ": its with side's serverWorkNanos is 1700 ns above the without side's, "
                + "not the 2000 ns of --inject serverWorkNanos=2000", "calibrate", "--from", file.toString(),
                "--experiments", "2", "--pairs", "3", "--inject", "serverWorkNanos=2000");
        int status = execute("calibrate", "--from", file.toString(), "--experiments", "2", "--pairs", "3",
                "--inject", "serverWorkNanos=1700");
        assertThat(status).as(err.toString()).isZero();

        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "alternating", "pairs", 6, "windowsPerPair", 2, "without", without,
                        "with", side("notification", null)), fourMetricPairs())));
        assertThat(execute("calibrate", "--from", file.toString(), "--experiments", "2", "--pairs", "3"))
                .as(err.toString()).isZero();
    }

    /** A side of a stored plan as ab --out writes it, the workload's values as text. */
    private static Map<String, Object> side(String completion, String serverWorkNanos) {
        Map<String, Object> workload = new java.util.LinkedHashMap<>(Map.of("stack", "perflab", "mode", "sync",
                "clientThreads", "16", "runSeconds", "3"));
        if (serverWorkNanos != null) {
            workload.put("serverWorkNanos", serverWorkNanos);
        }
        return Map.of("kind", "engine", "engineOptions", Map.of("completion", completion, "allocator", "pooled"),
                "workload", workload, "jvmArgs", List.of());
    }

    @Test
    void aStoredFreshRunWithUnusableFiguresIsAUsageErrorOrLeavesThemOut() throws IOException {
        // a sampling floor that is not a number is left out (it was a NumberFormatException); a value beyond what
        // can be compared is refused naming the file (it was an IllegalArgumentException with a stack trace)
        List<TrialResult> trials = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            TrialResult t = userCpuTrial(i % 2 == 0 ? "without" : "with", i, 10 + i % 3);
            trials.add(new TrialResult(t.variant(), t.ordinal(), t.status(), t.start(), t.end(), t.pid(), t.metrics(),
                    Map.of(RpcBenchResult.USER_SAMPLING_ERROR, i == 0 ? "n/a" : "4.0"), null));
        }
        Path file = directory.resolve("fresh.json");
        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "fresh", "runsPerVariant", 4), trials)));
        int status = execute("calibrate", "--from", file.toString(), "--experiments", "2", "--runs", "2");
        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).contains("4.00%");
        assertRejected("--mde-runs must be at least 2, got 1", "calibrate", "--from", file.toString(),
                "--experiments", "2", "--runs", "2", "--mde-runs", "1");
        // sized an experiment of 2147483647 + 2147483647 trials, "about 2012927023 min 49 s" long
        assertRejected("--mde-runs must be at most 1000000, the most trials per side of an experiment, got "
                + "2147483647", "calibrate", "--from", file.toString(), "--experiments", "2", "--runs", "2",
                "--mde-runs", "2147483647");
        // a plan of 4.0 trials per side was "a plan of 4.0 trials per side, not --experiments 2 × --runs 2 = 4"
        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "fresh", "runsPerVariant", 4.0), trials)));
        assertRejected("--from " + file + ": its plan's experiment.runsPerVariant is 4.0, not a whole number",
                "calibrate", "--from", file.toString(), "--experiments", "2", "--runs", "2");
        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "fresh", "runsPerVariant", 4), trials)));

        TrialResult huge = trials.get(1);
        trials.set(1, new TrialResult(huge.variant(), huge.ordinal(), huge.status(), huge.start(), huge.end(),
                huge.pid(), Map.of(MetricKeys.USER_CPU_US_PER_REQ, 1e200), huge.environment(), null));
        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "fresh", "runsPerVariant", 4), trials)));
        assertThat(execute("calibrate", "--from", file.toString(), "--experiments", "2", "--runs", "2")).isEqualTo(2);
        assertThat(err.toString()).contains("--from " + file + ": ", "too large").doesNotContain("Exception",
                "\tat ");
    }

    /**
     * Pairs start 20 s apart and last 3 s: two experiments of three pairs take 43 s each, not 103 s from end to end.
     */
    @Test
    void aStoredRunsTimeIsTheSumOfItsExperimentsOwnSpans() {
        assertThat(CalibrateCommand.experimentsTime(fourMetricPairs(), true, 3)).isEqualTo(Duration.ofSeconds(86));
    }

    /** Six pairs of two windows, each window carrying user, system and total CPU and context switches per call. */
    private static List<TrialResult> fourMetricPairs() {
        double[] noise = {0.003, -0.002, 0.001, -0.003, 0.002, -0.001};
        List<TrialResult> results = new ArrayList<>();
        for (int p = 0; p < 6; p++) {
            double user = p < 3 ? 1.2 : 1;
            for (TrialResult r : io.perflab.paired.PairedFixtures.pair(p, MetricKeys.CPU_US_PER_REQ,
                    new double[] {50, 50}, new double[] {50 * (1 + noise[p]), 50 * (1 + noise[p])}).results()) {
                double v = r.metrics().get(MetricKeys.CPU_US_PER_REQ);
                boolean with = r.variant().equals("with");
                results.add(new TrialResult(r.variant(), r.ordinal(), r.status(), r.start(), r.end(), r.pid(),
                        Map.of(MetricKeys.CPU_US_PER_REQ, v, MetricKeys.USER_CPU_US_PER_REQ, (with ? user : 1) * v / 3,
                                MetricKeys.SYS_CPU_US_PER_REQ, 2 * v / 3, MetricKeys.CTX_SWITCHES_PER_REQ, v / 10),
                        r.environment(), r.error(), r.pair()));
            }
        }
        return results;
    }

    @Test
    void badFlagsExitTwoNamingTheFlag() {
        assertRejected("--inject takes serverWorkNanos=N with N from 1 to 1000000", "calibrate", "--inject",
                "serverWork=5");
        assertRejected("--inject takes serverWorkNanos=N with N from 1 to 1000000", "calibrate", "--inject",
                "serverWorkNanos=2000000");
        assertRejected("--reference goes with --inject", "calibrate", "--reference", "ref.json");
        assertRejected("--pairs must be at least 2, got 1", "calibrate", "--design", "duet", "--pairs", "1");
        assertRejected("--design must be fresh, duet or alternating, got 'solo'", "calibrate", "--design", "solo");
        assertRejected("--runs must be at least 2, got 1", "calibrate", "--runs", "1");
        assertRejected("--experiments must be at least 1, got 0", "calibrate", "--experiments", "0");
        // the level as given: it said "got 2.0"
        assertRejected("Invalid value for option '--alpha': a significance level lies between 0 and 1 (both "
                + "excluded), got '2'", "calibrate", "--alpha", "2");
        // 0x1p-4 was taken as 0.0625 (here the flag after it would be refused, so that nothing runs)
        assertRejected("Invalid value for option '--alpha': '0x1p-4' is not a number", "calibrate", "--alpha",
                "0x1p-4", "--experiments", "0");
        assertRejected("--mde-runs must be at least 2", "calibrate", "--mde-runs", "1");
        assertRejected("--experiments 2147483647 × --runs 10 is more than one plan can hold", "calibrate",
                "--experiments", "2147483647", "--runs", "10");
        // 2 × 100000000 × 20 trials were more than an int holds, and a stack trace
        assertRejected("--experiments 100000000 × --runs 20 is more than one plan can hold (1000000 trials per side)",
                "calibrate", "--experiments", "100000000", "--runs", "20", "--no-fast-start");
        assertRejected("--set: unknown engine option 'nagle'", "calibrate", "--set", "nagle=off");
        assertRejected("--trial-timeout must not be negative", "calibrate", "--trial-timeout", "-1");
    }

    @Test
    void flagsTheDesignWouldNotUseAreRefusedNamingThem() {
        // each was ignored: the runs of a paired design, the pairs of a fresh one, --mde-runs where no report uses it
        assertThat(planError("--design", "alternating", "--runs", "5")).isEqualTo(
                "--runs sets the trials of the fresh design; --design alternating takes --pairs");
        assertThat(planError("--runs", "10", "--pairs", "4", "--windows-per-pair", "2")).isEqualTo(
                "--pairs and --windows-per-pair apply to --design duet or alternating; --runs without --design "
                        + "chooses the fresh design");
        assertThat(planError("--design", "fresh", "--windows-per-pair", "2")).isEqualTo(
                "--windows-per-pair applies to --design duet or alternating, not to --design fresh");
        assertThat(planError("--design", "duet", "--mde-runs", "30")).isEqualTo("--mde-runs sizes the experiment "
                + "whose minimum detectable effect the A/A report of the fresh design gives; --design duet reports "
                + "that of its own experiments of --pairs pairs");
        assertThat(planError("--runs", "5", "--inject", "serverWorkNanos=100", "--mde-runs", "30")).isEqualTo(
                "--mde-runs sizes the experiment whose minimum detectable effect the A/A report of the fresh design "
                        + "gives; with --inject the report is the estimate's bias, coverage and power instead");
    }

    @Test
    void aStoredRunIsCutOnlyByTheFlagsOfItsDesign() throws IOException {
        Path fresh = directory.resolve("fresh-20.json");
        Files.writeString(fresh, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "fresh", "runsPerVariant", 20), List.of())));
        Path paired = directory.resolve("pairs-6.json");
        Files.writeString(paired, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "alternating", "pairs", 6, "windowsPerPair", 2), fourMetricPairs())));

        // it said "holds a plan of 20 trials per side, not --experiments 20 × --runs 1 = 20"
        assertRejected("--runs must be at least 2, got 1", "calibrate", "--from", fresh.toString(), "--experiments",
                "20", "--runs", "1");
        assertRejected("--experiments must be at least 1, got 0", "calibrate", "--from", fresh.toString(),
                "--experiments", "0", "--runs", "2");
        assertRejected("--runs sets the trials of the fresh design; the alternating run in --from " + paired
                + " takes --pairs", "calibrate", "--from", paired.toString(), "--experiments", "2", "--runs", "3");
        assertRejected("--pairs applies to --design duet or alternating, not to the fresh run in --from " + fresh,
                "calibrate", "--from", fresh.toString(), "--experiments", "10", "--runs", "2", "--pairs", "4");
    }

    @Test
    void aStoredRunRefusesTheFlagsThatOnlyShapeARun() throws IOException {
        Path paired = directory.resolve("pairs-6.json");
        Files.writeString(paired, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "alternating", "pairs", 6, "windowsPerPair", 2), fourMetricPairs())));

        // each was accepted and ignored: the stored run was made with its own
        assertRejected("--warmup-seconds applies only to a run; --from " + paired + " judges a stored run again, as "
                + "it was run: leave it out", "calibrate", "--from", paired.toString(), "--experiments", "2",
                "--pairs", "3", "--warmup-seconds", "5");
        assertRejected("--set, --design, --windows-per-pair, --server-work-nanos, --jvm-args, --no-fast-start, --out "
                + "apply only to a run; --from " + paired + " judges a stored run again, as it was run: leave them "
                + "out", "calibrate", "--from", paired.toString(), "--experiments", "2", "--pairs", "3", "--design",
                "alternating", "--windows-per-pair", "2", "--set", "completion=monitor", "--server-work-nanos", "100",
                "--jvm-args", "-Xmx1g", "--no-fast-start", "--out", directory.resolve("again.json").toString());
        assertRejected("--trial-timeout, --cooldown, --max-failures, --cpus apply only to a run", "calibrate",
                "--from", paired.toString(), "--experiments", "2", "--pairs", "3", "--trial-timeout", "30",
                "--cooldown", "1", "--max-failures", "0", "--cpus", "0");

        int status = execute("calibrate", "--from", paired.toString(), "--experiments", "2", "--pairs", "3",
                "--alpha", "0.1");
        assertThat(status).as("the flags that cut and judge it are taken: " + err).isZero();
    }

    @Test
    void aStoredFreshAaRunRefusesAReferenceWithoutAnInjection() throws IOException {
        Path fresh = directory.resolve("fresh-6.json");
        Files.writeString(fresh, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "fresh", "runsPerVariant", 6), trials(WITHOUT, WITH))));

        // it was ignored: the A/A report of fresh trials never read it
        assertRejected("--reference goes with --inject: it holds the effect the injection should show", "calibrate",
                "--from", fresh.toString(), "--experiments", "2", "--runs", "3", "--reference",
                directory.resolve("long-run.json").toString());
    }

    /**
     * Flags that keep a run that was not refused short, and from measuring anything: its first trial JVM does not
     * start (an unknown JVM flag) and one failure ends the run.
     */
    private static final String[] NOTHING_RUNS = {"--experiments", "1", "--runs", "2", "--no-fast-start",
        "--max-failures", "0", "--jvm-args", "-XX:+NoSuchOptionOfAnyJvm"};

    /** Asserts that {@code perflab calibrate args… NOTHING_RUNS} exits 2 saying {@code message}, before any trial. */
    private void assertRefusedBeforeARun(String message, String... args) {
        List<String> all = new ArrayList<>(List.of("calibrate"));
        all.addAll(List.of(args));
        all.addAll(List.of(NOTHING_RUNS));
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        int status = execute(all.toArray(String[]::new));
        assertThat(status).as(err.toString()).isEqualTo(2);
        assertThat(err.toString()).contains(message).doesNotContain("internal error", "Exception", "java.",
                "io.perflab", "\tat ");
        assertThat(out.toString()).doesNotContain("trials (");
    }

    /** An experiment file of a fresh run whose with side's user CPU is 20 % above its baseline's. */
    private Path referenceFile(String name) throws IOException {
        Path file = directory.resolve(name);
        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "fresh", "runsPerVariant", 6), trials(WITHOUT, WITH))));
        return file;
    }

    @Test
    void theOutFileIsNeverTheReferenceRun() throws IOException {
        Path reference = referenceFile("long.json");
        String stored = Files.readString(reference);
        // the run went ahead and its first write replaced the long reference run
        for (String out : new String[] {reference.toString(), directory.resolve(".").resolve("long.json").toString()}) {
            assertRefusedBeforeARun("--out " + out + " is the file of --reference " + reference, "--inject",
                    "serverWorkNanos=5", "--reference", reference.toString(), "--out", out);
        }
        assertThat(Files.readString(reference)).isEqualTo(stored);
    }

    @Test
    void aReferenceThatGivesNoEffectIsRefusedBeforeARun() throws IOException {
        // each was taken as no reference at all, and a run of hours went ahead
        Path empty = directory.resolve("empty.json");
        Files.writeString(empty, "{\"experiment\": {}, \"trials\": []}");
        assertRefusedBeforeARun("--reference " + empty + ": it gives no reference effect: it has no trials",
                "--inject", "serverWorkNanos=5", "--reference", empty.toString());
        Path other = directory.resolve("other.json");
        List<TrialResult> trials = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            trials.add(new TrialResult(i % 2 == 0 ? "without" : "with", i, TrialStatus.OK, null, null, 1,
                    Map.of("Parse:ops/s", 1000.0 + i), Map.of(), null));
        }
        Files.writeString(other, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of(), trials)));
        assertRefusedBeforeARun("--reference " + other + ": it gives no reference effect: ", "--inject",
                "serverWorkNanos=5", "--reference", other.toString());
        // an internal error quoting a NullPointerException
        Path nullTrial = directory.resolve("null.json");
        Files.writeString(nullTrial, "{\"trials\": [null]}");
        assertRefusedBeforeARun("--reference " + nullTrial + ": not an experiment file of perflab ab --out: "
                + "trials[0] is null", "--inject", "serverWorkNanos=5", "--reference", nullTrial.toString());
    }

    @Test
    void aStoredRunThatIsNoExperimentFileIsRefusedInItsOwnTerms() throws IOException {
        // the parser's own words: "Cannot construct instance of io.perflab.runner.trial.TrialResult…",
        // "Unrecognized property "bogus" (class …)", "Cannot deserialize value of type java.lang.Double",
        // "Unexpected end-of-input … StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION"; a null trial was an internal error
        String[][] cases = {
            {"{\"trials\":[{\"ordinal\":0,\"pid\":1,\"status\":\"OK\"}]}", "trials[0].variant: is missing or null"},
            {"{\"trials\":[{\"variant\":\"with\",\"ordinal\":0,\"pid\":1,\"status\":\"OK\",\"bogus\":1}]}",
                "trials[0].bogus: unknown field; allowed: "},
            {"{\"trials\":[{\"variant\":\"with\",\"ordinal\":0,\"pid\":1,\"status\":\"OK\",\"metrics\":"
                + "{\"x\":\"a\"}}]}", "trials[0].metrics.x: must be a number"},
            {"{\"trials\":[", "not valid JSON (line 1"},
            {"{\"trials\":[null]}", "trials[0] is null"},
            // "must be one of ok, failed, …", which were refused as they were listed
            {"{\"trials\":[{\"variant\":\"with\",\"ordinal\":0,\"pid\":1,\"status\":\"ok\"}]}",
                "trials[0].status: must be one of OK, FAILED, "},
            {"[1, 2]", "not an experiment file of perflab ab --out"},
        };
        Path file = directory.resolve("stored.json");
        for (String[] c : cases) {
            Files.writeString(file, c[0]);
            assertRejected("--from " + file + ": not an experiment file of perflab ab --out: ", "calibrate", "--from",
                    file.toString(), "--experiments", "1", "--runs", "2");
            java.io.StringWriter errors = new java.io.StringWriter();
            PerfLabCommand.commandLine(new java.io.PrintWriter(new java.io.StringWriter()),
                    new java.io.PrintWriter(errors, true))
                    .execute("calibrate", "--from", file.toString(), "--experiments", "1", "--runs", "2");
            assertThat(errors.toString()).as(c[0]).contains(c[1]).containsOnlyOnce("not an experiment file")
                    .doesNotContain("Cannot ", "java.", "io.perflab", "class ", "Feature", "internal error");
        }
        // "holds a plan of null trials per side"
        Files.writeString(file, "{\"experiment\": {}, \"trials\": []}");
        assertRejected("--from " + file + ": its plan names no number of trials per side (experiment.runsPerVariant),"
                + " so it cannot be cut into --experiments 1 × --runs 2", "calibrate", "--from", file.toString(),
                "--experiments", "1", "--runs", "2");
    }

    @Test
    void aStoredRunOfWhichNothingCanBeJudgedIsRefused() throws IOException {
        Path file = directory.resolve("failed.json");
        List<TrialResult> failed = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            failed.add(new TrialResult(i % 2 == 0 ? "without" : "with", i, TrialStatus.FAILED, null, null, 1,
                    Map.of(), Map.of(), "crashed"));
        }
        // an empty table, and status 0
        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("design", "fresh", "runsPerVariant", 2), failed)));
        assertRejected("--from " + file + ": nothing to judge: none of its 4 trials succeeded", "calibrate", "--from",
                file.toString(), "--experiments", "1", "--runs", "2");
        Files.writeString(file, "{\"experiment\": {\"design\": \"fresh\", \"runsPerVariant\": 2}, \"trials\": []}");
        assertRejected("--from " + file + ": nothing to judge: it has no trials", "calibrate", "--from",
                file.toString(), "--experiments", "1", "--runs", "2");
        // a peers --out file: 0/0 rows of its stacks
        List<TrialResult> stacks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            stacks.add(userCpuTrial(List.of("perflab", "grpc", "netty").get(i % 3), i, 10 + i));
        }
        Files.writeString(file, io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(new ExperimentJson(
                Map.of("runsPerVariant", 2), stacks)));
        assertRejected("--from " + file + ": its trials are of the variants perflab, grpc, netty", "calibrate",
                "--from", file.toString(), "--experiments", "1", "--runs", "2");
    }

    @Test
    void engineOptionsOfAnotherStackAreRefused() {
        // --set was ignored: the other stack has no engine options
        assertThat(planError("--set", "tls=true", "--stack", "grpc")).isEqualTo("--set sets engine options, which "
                + "apply to --stack perflab only; got --set tls=true with --stack grpc");
        // --encryption turned tls on, whatever --set said
        assertThat(planError("--set", "tls=false", "--encryption")).isEqualTo("--set tls=false and --encryption "
                + "contradict each other: --encryption turns the engine's tls option on; give one of them");
    }

    /** The message of the usage error {@link CalibrateCommand#plan()} makes of {@code args}: parsed, nothing run. */
    private static String planError(String... args) {
        CalibrateCommand command = new CalibrateCommand();
        new picocli.CommandLine(command).parseArgs(args);
        try {
            command.plan();
        } catch (picocli.CommandLine.ParameterException e) {
            return e.getMessage();
        }
        throw new AssertionError("no usage error for " + String.join(" ", args));
    }

    /** Interleaved trials, ordinal 2i without and 2i + 1 with. */
    private static List<TrialResult> trials(double[] without, double[] with) {
        List<TrialResult> trials = new ArrayList<>();
        for (int i = 0; i < without.length; i++) {
            trials.add(userCpuTrial("without", 2 * i, without[i]));
            trials.add(userCpuTrial("with", 2 * i + 1, with[i]));
        }
        return trials;
    }
}
