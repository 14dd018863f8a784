package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.PairPosition;
import io.perflab.stats.Power;
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

        assertThat(cpu.verdict()).as(cpu.reason()).isEqualTo("inconclusive");
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

        assertThat(constant.error()).startsWith("data are essentially constant");
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
}
