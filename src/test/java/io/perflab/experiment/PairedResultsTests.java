package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.perflab.paired.PairedSamples;
import io.perflab.paired.SequentialStopping;
import io.perflab.paired.WarmupCheck;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.PairPosition;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.PairWindows;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.Power;
import io.perflab.stats.RelativeChange;
import io.perflab.stats.SequentialLook;
import io.perflab.stats.SequentialPlan;
import io.perflab.stats.Summary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PairedResultsTests {

    private static final List<String> KEYS = List.of(MetricKeys.CPU_US_PER_REQ, MetricKeys.CTX_SWITCHES_PER_REQ,
            MetricKeys.HOST_PROBE_NS, MetricKeys.CPU_US_PER_REQ_ADJ);

    /**
     * Five pairs of two windows: CPU per call 3 % higher with the change, context switches 1 % higher; the change's
     * host probe reads {@code probeFactor} × the baseline's.
     */
    private static List<RunRecord> runs(double probeFactor) {
        double[] noise = {1.00, 1.02, 0.99, 1.01, 0.98, 1.03, 1.00, 0.97, 1.02, 0.99};
        List<RunRecord> runs = new ArrayList<>();
        long id = 1;
        for (int pair = 0; pair < 5; pair++) {
            for (int window = 0; window < 2; window++) {
                double host = 300 * noise[pair * 2 + window];
                for (String variant : List.of("without", "with")) {
                    boolean with = variant.equals("with");
                    double n = with ? noise[9 - pair * 2 - window] : 1;
                    double probe = with ? host * probeFactor * (1 + (n - 1) / 2) : host;
                    Map<String, Double> metrics = MetricKeys.withHostSpeed(Map.of(
                            MetricKeys.CPU_US_PER_REQ, 40.0 * (with ? 1.03 * n : 1) * host / 300,
                            MetricKeys.CTX_SWITCHES_PER_REQ, 4.0 * (with ? 1.01 : 1) * (1 + (n - 1) / 10)), probe);
                    runs.add(new RunRecord(id, variant, (int) id++, "OK", Instant.EPOCH, Instant.EPOCH, 1L, Map.of(),
                            null, metrics, new PairPosition(pair, window, null, 0L, null, true)));
                }
            }
        }
        return runs;
    }

    @Test
    void theHostScaledMetricsAreAdjustedAmongThemselvesAndCarryANoteWhenTheProbeMoved() {
        List<MetricComparison> steady = PairedResults.compare(runs(1.0), KEYS, Map.of());
        List<MetricComparison> alone = PairedResults.compare(runs(1.0), KEYS.subList(0, 2), Map.of());
        List<MetricComparison> moved = PairedResults.compare(runs(1.2), KEYS, Map.of());

        assertThat(steady.get(0).tests().holmPValue()).as("the scaled metrics do not make the measured ones' Holm "
                + "stricter").isEqualTo(alone.get(0).tests().holmPValue());
        assertThat(steady.get(1).tests().holmPValue()).isEqualTo(alone.get(1).tests().holmPValue());
        assertThat(steady.get(3).warnings()).noneMatch(w -> w.contains("host probe moved"));
        assertThat(moved.get(3).warnings()).anyMatch(w -> w.startsWith("the host probe moved between the variants (+20")
                && w.endsWith("judge it by the measured metric"));
        assertThat(moved.get(0).warnings()).noneMatch(w -> w.contains("host probe"));
    }

    @Test
    void aPairedComparisonSaysWhatItCouldDetectAndHowManyPairsWouldFindOnePercent() {
        MetricComparison cpu = PairedResults.compare(runs(1.0), KEYS, Map.of()).get(0);
        double[] r = cpu.paired().pairPercents().stream().mapToDouble(p -> Math.log1p(p / 100)).toArray();
        double sd = Summary.of(r, "r").sd();
        Power expected = Power.paired(sd, r.length, 0.05, 0.8, 1);

        assertThat(cpu.sensitivity().mdePercent()).as("the MDE of the test over the 5 pairs, not of 10 windows")
                .isCloseTo(expected.minimumDetectableEffectPercent(), within(1e-9));
        assertThat(cpu.sensitivity().runsPerVariantFor1Percent()).isEqualTo(expected.runsPerVariantForTarget())
                .isGreaterThan(5);
    }

    @Test
    void anInconclusiveVerdictSaysHowManyPairsWouldDetectOnePercent() {
        double[] change = {1.05, 0.97, 1.02, 0.99};
        List<RunRecord> runs = new ArrayList<>();
        long id = 1;
        for (int pair = 0; pair < change.length; pair++) {
            for (String variant : List.of("without", "with")) {
                double cpu = 40.0 * (variant.equals("with") ? change[pair] : 1);
                runs.add(new RunRecord(id, variant, (int) id++, "OK", Instant.EPOCH, Instant.EPOCH, 1L, Map.of(), null,
                        Map.of(MetricKeys.CPU_US_PER_REQ, cpu), new PairPosition(pair, 0, null, 0L, null, true)));
            }
        }
        MetricComparison cpu = PairedResults.compare(runs, List.of(MetricKeys.CPU_US_PER_REQ), Map.of()).get(0);

        assertThat(cpu.reason()).endsWith(": about " + cpu.sensitivity().runsPerVariantFor1Percent()
                + " pairs like these would detect a 1% change");
        assertThat(cpu.sensitivity().runsPerVariantFor1Percent()).isGreaterThan(change.length);
    }

    @Test
    void aConstantShiftKeepsTheVerdictOfTheLogRatiosAndShowsNoDifference() {
        // 'with' is 'without' + 5 µs in every window: the paired t-test of the differences has no answer (R: "data
        // are essentially constant"), the log ratios log1p(5 / without) still differ; R 4.2.2:
        // t.test(log1p(5 / c(100, 120, 90, 110)))$p.value = 0.000487, below α: CPU per call (lower is better) rose
        double[] without = {100, 120, 90, 110};
        List<RunRecord> runs = new ArrayList<>();
        long id = 1;
        for (int pair = 0; pair < without.length; pair++) {
            for (int window = 0; window < 2; window++) {
                for (String variant : List.of("without", "with")) {
                    double cpu = without[pair] + (variant.equals("with") ? 5 : 0);
                    runs.add(new RunRecord(id, variant, (int) id++, "OK", Instant.EPOCH, Instant.EPOCH, 1L, Map.of(),
                            null, Map.of(MetricKeys.CPU_US_PER_REQ, cpu),
                            new PairPosition(pair, window, null, 0L, null, true)));
                }
            }
        }
        MetricComparison cpu = PairedResults.compare(runs, List.of(MetricKeys.CPU_US_PER_REQ), Map.of()).get(0);

        assertThat(cpu.error()).isNull();
        assertThat(cpu.verdict()).as(cpu.reason()).isEqualTo("regressed");
        assertThat(cpu.change().percent()).isCloseTo(4.8156372986187383, within(1e-9));
        assertThat(cpu.change().difference()).isNull();
        assertThat(cpu.change().differenceCiLow()).isNull();
        assertThat(cpu.change().differenceCiHigh()).isNull();
        assertThat(cpu.warnings()).anyMatch(w -> w.startsWith("the paired t-test of the difference in the metric's"
                + " units is left out (data are essentially constant"));
    }

    /**
     * The looks a stopping rule with the target {@code cpu_us_per_req:settled} and a plan of 5 pairs takes at 2, 3,
     * 4 and 5 pairs of these log ratios, as they are stored.
     */
    private static List<SequentialLookRepository.LookRecord> looksAt(double[] logRatios) {
        SequentialStopping.Target target = SequentialStopping.Target.parse(MetricKeys.CPU_US_PER_REQ + ":settled");
        List<SequentialLookRepository.LookRecord> looks = new ArrayList<>();
        List<PairWindows> pairs = new ArrayList<>();
        List<Integer> pairsAtLooks = new ArrayList<>();
        for (double r : logRatios) {
            pairs.add(PairWindows.of(new double[] {100 * Math.exp(r)}, new double[] {100}));
            if (pairs.size() < 2) {
                continue;
            }
            pairsAtLooks.add(pairs.size());
            PairedAnalysis analysis = PairedAnalysis.analyze(pairs, ComparisonOptions.defaults());
            SequentialLook look = new SequentialPlan(SequentialStopping.SPENDING, 0.05, 5, 0)
                    .look(pairsAtLooks.stream().mapToInt(Integer::intValue).toArray(), analysis, false);
            looks.add(SequentialLookRepository.LookRecord.of(new SequentialStopping.Look(target, look, analysis,
                    look.stop())));
        }
        return looks;
    }

    /** A target whose last look stopped it as futile says so in its verdict's reason, after what the look found. */
    @Test
    void aTargetStoppedAsFutileSaysSoInItsVerdict() {
        double[] r = {0.001, -0.002, 0.0005, 0.001, -0.001};
        List<RunRecord> runs = new ArrayList<>();
        long id = 1;
        for (int pair = 0; pair < r.length; pair++) {
            for (boolean with : new boolean[] {false, true}) {
                runs.add(new RunRecord(id, with ? "with" : "without", (int) id++, "OK", Instant.EPOCH, Instant.EPOCH,
                        1L, Map.of(), null, Map.of(MetricKeys.CPU_US_PER_REQ, with ? 100 * Math.exp(r[pair]) : 100),
                        new PairPosition(pair, 0, null, 0L, null, true)));
            }
        }
        List<SequentialLookRepository.LookRecord> looks = new ArrayList<>(looksAt(r));
        SequentialLookRepository.LookRecord last = looks.remove(looks.size() - 1);
        looks.add(new SequentialLookRepository.LookRecord(last.metric(), last.look(), last.pairs(),
                last.plannedPairs(), MetricKeys.CPU_US_PER_REQ + ":mde=2%", last.percent(), last.ciLowPercent(),
                last.ciHighPercent(), last.halfWidthPercent(), last.t(), last.tBoundary(), 1.25, "FUTILE",
                last.description()));

        MetricComparison cpu = PairedResults.compare(runs, List.of(MetricKeys.CPU_US_PER_REQ), Map.of(),
                new SequentialVerdicts(looks)).get(0);

        assertThat(cpu.paired().sequential().outcome()).isEqualTo("FUTILE");
        assertThat(cpu.paired().sequential().tFutility()).isEqualTo(1.25);
        assertThat(cpu.reason()).startsWith("no significant change at α = 0.05 (|t| = ").endsWith("; the look "
                + "stopped it as futile (|t| below its futility bound 1.25): a change of the target's smallest size "
                + "(mde=) was unlikely to be found by the last planned pair");

        // a look stored before the bounds were kept says the same without one
        looks.set(looks.size() - 1, new SequentialLookRepository.LookRecord(last.metric(), last.look(), last.pairs(),
                last.plannedPairs(), MetricKeys.CPU_US_PER_REQ + ":mde=2%", last.percent(), last.ciLowPercent(),
                last.ciHighPercent(), last.halfWidthPercent(), last.t(), last.tBoundary(), null, "FUTILE",
                last.description()));
        MetricComparison before = PairedResults.compare(runs, List.of(MetricKeys.CPU_US_PER_REQ), Map.of(),
                new SequentialVerdicts(looks)).get(0);
        assertThat(before.paired().sequential().tFutility()).isNull();
        assertThat(before.reason()).endsWith("; the look stopped it as futile: a change of the target's smallest "
                + "size (mde=) was unlikely to be found by the last planned pair");
    }

    @Test
    void aTargetOfTheStoppingRuleIsJudgedByItsLastLookAndTheOtherMetricsSayTheyWereNot() {
        // a plan of 5 pairs, O'Brien–Fleming, looks at 2, 3, 4 and 5 pairs; CPU per call (lower is better) of each
        // pair's single window: log(with / without) = r. Context switches rose 10 % in every pair (p ≈ 0), so that
        // Holm leaves CPU's p as it is
        double[] r = {0.010, 0.030, 0.020, -0.002, 0.020};
        double[] ctx = {1.101, 1.099, 1.102, 1.098, 1.100};
        List<RunRecord> runs = new ArrayList<>();
        long id = 1;
        for (int pair = 0; pair < r.length; pair++) {
            for (String variant : List.of("without", "with")) {
                boolean with = variant.equals("with");
                runs.add(new RunRecord(id, variant, (int) id++, "OK", Instant.EPOCH, Instant.EPOCH, 1L, Map.of(), null,
                        Map.of(MetricKeys.CPU_US_PER_REQ, with ? 100 * Math.exp(r[pair]) : 100,
                                MetricKeys.CTX_SWITCHES_PER_REQ, with ? 4 * ctx[pair] : 4),
                        new PairPosition(pair, 0, null, 0L, null, true)));
            }
        }
        List<SequentialLookRepository.LookRecord> looks = looksAt(r);
        List<MetricComparison> compared = PairedResults.compare(runs,
                List.of(MetricKeys.CPU_US_PER_REQ, MetricKeys.CTX_SWITCHES_PER_REQ), Map.of(),
                new SequentialVerdicts(looks));
        MetricComparison cpu = compared.get(0);
        assertThat(cpu.verdict()).as(cpu.reason()).isEqualTo("inconclusive");
        MetricComparison.Sequential last = cpu.paired().sequential();

        // the look at 5: |t| = 2.879 < 2.943, the boundary, "last look, not significant"; its repeated interval
        // [-0.03 %, +3.21 %] (SequentialPlan, whose boundaries GroupSequentialTests checks against gsDesign)
        assertThat(looks.get(3).outcome()).isEqualTo("LAST_LOOK");
        assertThat(last.looks()).isEqualTo(4);
        assertThat(last.pairs()).isEqualTo(5);
        assertThat(last.plannedPairs()).isEqualTo(5);
        assertThat(last.spending()).isEqualTo("O'Brien–Fleming");
        assertThat(last.t()).isCloseTo(2.879032535, within(1e-8));
        assertThat(last.tBoundary()).isCloseTo(2.943, within(5e-4));
        assertThat(cpu.change().ciLowPercent()).isEqualTo(looks.get(3).ciLowPercent()).isCloseTo(-0.03, within(5e-3));
        assertThat(cpu.change().ciHighPercent()).isEqualTo(looks.get(3).ciHighPercent()).isCloseTo(3.21, within(5e-3));
        assertThat(cpu.verdict()).as(cpu.reason()).isEqualTo("inconclusive");
        assertThat(cpu.reason()).startsWith("no significant change at α = 0.05 (|t| = 2.879 < 2.9433, the "
                + "O'Brien–Fleming boundary of the last look (look 4, 5 of 5 planned pairs)), but its repeated "
                + "interval [-0.03%, +3.21%] reaches beyond ±1%");
        assertThat(cpu.tests().pValue()).as("shown only as ignoring the looks").isNull();
        assertThat(cpu.tests().holmPValue()).isNull();
        // R 4.2.2: t.test(c(0.010, 0.030, 0.020, -0.002, 0.020)): p = 0.04505694395, 100 * expm1(conf.int) =
        // [0.05560231657, 3.11184958482]
        assertThat(last.pValueIgnoringLooks()).isCloseTo(0.04505694395, within(1e-9));
        assertThat(last.holmPValueIgnoringLooks()).isCloseTo(0.04505694395, within(1e-9));
        assertThat(last.ciLowPercentIgnoringLooks()).isCloseTo(0.05560231657, within(1e-9));
        assertThat(last.ciHighPercentIgnoringLooks()).isCloseTo(3.11184958482, within(1e-9));
        // the estimate adjusted for stopping, at the look that ended the target (the last, at 5 of 5 pairs)
        RelativeChange adjusted = new SequentialPlan(SequentialStopping.SPENDING, 0.05, 5, 0)
                .look(new int[] {2, 3, 4, 5}, r, false).stagewise(0.95);
        // (from the stored windows, whose log ratios are r to the last bits)
        assertThat(last.adjustedPercent()).isCloseTo(adjusted.percent(), within(1e-9)).isBetween(0.0, 3.21);
        assertThat(last.adjustedCiLowPercent()).isCloseTo(adjusted.ciLowPercent(), within(1e-9));
        assertThat(last.adjustedCiHighPercent()).isCloseTo(adjusted.ciHighPercent(), within(1e-9));
        assertThat(cpu.warnings()).contains("Δ % and its CI adjusted for 4 looks (O'Brien–Fleming): the repeated"
                + " confidence interval of the last look, at 5 pairs; ignoring the looks, the t-test over the 5 pairs"
                + " gives +1.57% [+0.06%, +3.11%], p = 0.04506, Holm p = 0.04506");

        MetricComparison switches = compared.get(1);
        assertThat(switches.paired().sequential()).isNull();
        assertThat(switches.verdict()).isEqualTo("regressed");
        assertThat(switches.tests().holmPValue()).isNotNull();
        assertThat(switches.warnings()).contains("the run's length was chosen by the stopping rule's looks at "
                + "cpu_us_per_req, not at this metric: its figures are those of a fixed number of pairs, not adjusted"
                + " for the looks");
    }

    @Test
    void aMetricEveryWindowMeasuresAlikeOnEachSideIsJudgedByItsExactChange() {
        // a command's B/op: 64 in every window without the change, 96 with it (one window missing on each side)
        List<RunRecord> runs = new ArrayList<>();
        long id = 1;
        for (int pair = 0; pair < 4; pair++) {
            for (int window = 0; window < 2; window++) {
                for (String variant : List.of("without", "with")) {
                    Map<String, Double> metrics = pair == 2 && window == 1 ? Map.of()
                            : Map.of("Join:B/op", variant.equals("with") ? 96.0 : 64.0);
                    runs.add(new RunRecord(id, variant, (int) id++, "OK", Instant.EPOCH, Instant.EPOCH, 1L, Map.of(),
                            null, metrics, new PairPosition(pair, window, null, 0L, null, true)));
                }
            }
        }
        MetricComparison bytes = PairedResults.compare(runs, List.of("Join:B/op"), Map.of()).get(0);

        assertThat(bytes.error()).isNull();
        assertThat(bytes.verdict()).as(bytes.reason()).isEqualTo("regressed");
        assertThat(bytes.reason()).isEqualTo("every window measured 64 without and 96 with: an exact change of +50.00% "
                + "(lower is better; no test is needed, or possible, as the values do not vary)");
        assertThat(bytes.change().percent()).isEqualTo(50.0);
        assertThat(bytes.change().ciLowPercent()).isEqualTo(50.0);
        assertThat(bytes.change().difference()).isEqualTo(32.0);
        assertThat(bytes.groups().meanWithout()).isEqualTo(64.0);
        assertThat(bytes.groups().nWith()).isEqualTo(4);
    }

    @Test
    void aMetricThePairsMeasuredButCouldNotCompareCountsThosePairs() {
        List<RunRecord> runs = new ArrayList<>();
        long id = 1;
        for (int pair = 0; pair < 4; pair++) {
            for (String variant : List.of("without", "with")) {
                Map<String, Double> metrics = variant.equals("with")
                        ? Map.of(MetricKeys.CTX_SWITCHES_PER_REQ, 4.0, MetricKeys.GC_COUNT, 1.0)
                        : Map.of(MetricKeys.CTX_SWITCHES_PER_REQ, 4.0);
                runs.add(new RunRecord(id, variant, (int) id++, "OK", Instant.EPOCH, Instant.EPOCH, 1L, Map.of(), null,
                        metrics, new PairPosition(pair, 0, null, 0L, null, true)));
            }
        }
        List<MetricComparison> compared = PairedResults.compare(runs,
                List.of(MetricKeys.CTX_SWITCHES_PER_REQ, MetricKeys.GC_COUNT), Map.of());
        MetricComparison constant = compared.get(0);
        MetricComparison oneSided = compared.get(1);

        // 4 context switches per call in every window of both sides: unchanged, exactly, and no test made
        assertThat(constant.error()).isNull();
        assertThat(constant.verdict()).isEqualTo("unchanged");
        assertThat(constant.reason()).startsWith("every window measured 4 on both sides: no change");
        assertThat(constant.groups().nWithout()).as("4 pairs measured it, as its means say").isEqualTo(4);
        assertThat(constant.groups().nWith()).isEqualTo(4);
        assertThat(constant.bothSides()).isTrue();
        assertThat(ResultsSummary.headline(compared)).containsExactly(constant);
        assertThat(oneSided.groups().nWithout()).isZero();
        assertThat(oneSided.groups().nWith()).isEqualTo(4);
        assertThat(oneSided.groups().meanWith()).isEqualTo(1.0);
    }

    /**
     * Eight pairs of three windows: CPU per call of 'with' falls by {@code withStep} per window, of 'without' by
     * {@code withoutStep}, each with its own noise; context switches do not move.
     */
    private static List<RunRecord> warming(double withStep, double withoutStep) {
        double[] noise = {1.01, 0.99, 1.02, 0.98, 1.00, 1.015, 0.985, 1.005};
        List<RunRecord> runs = new ArrayList<>();
        long id = 1;
        for (int pair = 0; pair < noise.length; pair++) {
            for (int window = 0; window < 3; window++) {
                double n = noise[(pair + window) % noise.length];
                double m = noise[(pair + 2 * window + 3) % noise.length];
                Map<String, Map<String, Double>> sides = Map.of(
                        "without", Map.of(MetricKeys.CPU_US_PER_REQ, 40 * (1 - withoutStep * window) * n,
                                MetricKeys.CTX_SWITCHES_PER_REQ, 4 * n),
                        "with", Map.of(MetricKeys.CPU_US_PER_REQ, 41 * (1 - withStep * window) * m,
                                MetricKeys.CTX_SWITCHES_PER_REQ, 4 * m));
                for (String variant : List.of("without", "with")) {
                    runs.add(new RunRecord(id, variant, (int) id++, "OK", Instant.EPOCH, Instant.EPOCH, 1L, Map.of(),
                            null, sides.get(variant), new PairPosition(pair, window, null, 0L, null, true)));
                }
            }
        }
        return runs;
    }

    @Test
    void aMetricWhoseVariantsWarmedUpDifferentlyAcrossTheirWindowsCarriesACaveat() {
        List<String> keys = List.of(MetricKeys.CPU_US_PER_REQ, MetricKeys.CTX_SWITCHES_PER_REQ);
        List<MetricComparison> apart = PairedResults.compare(warming(0.03, 0), keys, Map.of());
        List<MetricComparison> alike = PairedResults.compare(warming(0.03, 0.03), keys, Map.of());

        assertThat(apart.get(0).warnings()).anySatisfy(w -> assertThat(w)
                .startsWith("the variants' JVMs were still warming up differently: from its first window to its "
                        + "last 'with' moved -6.00%, 'without' +0.00% (a difference of -6.00% [")
                .contains("Holm-adjusted p = ", "over 8 pairs", "warmupSeconds auto:40"));
        assertThat(apart.get(1).warnings()).as("context switches did not drift").noneMatch(w -> w.contains("warming"));
        assertThat(alike.get(0).warnings()).as("a drift both share cancels").noneMatch(w -> w.contains("warming"));
    }

    @Test
    void theWarmupCheckAdjustsAcrossTheMetricsComparedAsTheCommandLineDoes() {
        // garbage collections drifted apart too, but 'with' counted none in pair 2's window 1: no log ratio, so the
        // metric is not compared and must not enlarge CPU's Holm p unseen, as the command line leaves it out
        List<RunRecord> runs = new ArrayList<>();
        for (RunRecord r : warming(0.03, 0)) {
            boolean with = r.variant().equals("with");
            double gc = with && r.pair().index() == 2 && r.pair().window() == 1 ? 0
                    : 10 * (with ? 1 - 0.05 * r.pair().window() : 1) * (1 + 0.01 * (r.ordinal() * 7 % 5));
            Map<String, Double> metrics = new java.util.HashMap<>(r.metrics());
            metrics.put(MetricKeys.GC_COUNT, gc);
            runs.add(new RunRecord(r.id(), r.variant(), r.ordinal(), r.status(), r.startedAt(), r.finishedAt(),
                    r.pid(), r.environment(), r.error(), metrics, r.pair()));
        }
        List<String> compared = List.of(MetricKeys.CPU_US_PER_REQ, MetricKeys.CTX_SWITCHES_PER_REQ);
        List<String> listed = List.of(MetricKeys.CPU_US_PER_REQ, MetricKeys.CTX_SWITCHES_PER_REQ, MetricKeys.GC_COUNT);

        List<MetricComparison> page = PairedResults.compare(runs, listed, Map.of());
        Map<String, WarmupCheck.Judged> commandLine = WarmupCheck.judge(
                PairedSamples.of(runs.stream().map(RunRecord::toTrialResult).toList()), compared,
                ComparisonOptions.defaults());

        assertThat(page.get(2).error()).contains("a log ratio needs positive values");
        assertThat(page.get(0).paired().warmup().holmPValue()).as("CPU's warmup Holm p, as perflab compare's")
                .isEqualTo(commandLine.get(MetricKeys.CPU_US_PER_REQ).adjustedP());
        assertThat(page.get(1).paired().warmup().holmPValue())
                .isEqualTo(commandLine.get(MetricKeys.CTX_SWITCHES_PER_REQ).adjustedP());
    }
}
