package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.experiment.PairCosts;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.stats.Alternative;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Display;
import io.perflab.stats.RobustPairedChange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PairedSummaryTests {

    /** Four pairs of two windows; the change's probe reads {@code probeFactor} × the baseline's, with jitter. */
    private static List<TrialResult> pairs(double probeFactor) {
        List<TrialResult> results = new ArrayList<>();
        double[] jitter = {1.00, 1.03, 0.98, 1.01, 0.99, 1.02, 0.97, 1.04};
        int ordinal = 0;
        for (int pair = 0; pair < 4; pair++) {
            for (int window = 0; window < 2; window++) {
                double host = 300 * jitter[pair * 2 + window];
                for (String variant : List.of("without", "with")) {
                    double probe = variant.equals("with") ? host * probeFactor * jitter[7 - pair * 2 - window] : host;
                    Map<String, Double> metrics = MetricKeys.withHostSpeed(
                            Map.of(MetricKeys.CPU_US_PER_REQ, 40.0 * probe / 300), probe);
                    results.add(new TrialResult(variant, ordinal++, TrialStatus.OK, Instant.EPOCH, Instant.EPOCH, 1,
                            metrics, Map.of(), null, new PairPosition(pair, window, null, 0L, null, true)));
                }
            }
        }
        return results;
    }

    @Test
    void theProbesOwnChangeIsPrintedAsTheCheckOfTheAdjustedMetrics() {
        String steady = PairedSummary.format(pairs(1.0), ComparisonOptions.defaults());
        String moved = PairedSummary.format(pairs(1.25), ComparisonOptions.defaults());

        assertThat(steady).contains("cpu_us_per_req_adj", "host_probe_ns",
                "host: host_probe_ns is the host's speed in each window").contains("The probe did not move")
                .doesNotContain("judge it by the raw ones");
        assertThat(moved).contains("The probe moved between the variants (+2", "judge it by the raw ones");
        assertThat(PairedSummary.format(pairs(1.0).stream().map(r -> r.withMetrics(Map.of(MetricKeys.CPU_US_PER_REQ,
                r.metrics().get(MetricKeys.CPU_US_PER_REQ)))).toList(), ComparisonOptions.defaults()))
                .as("no probe, no note").doesNotContain("host:");
    }

    @Test
    void aMetricEveryWindowMeasuresAlikeIsPrintedWithItsExactChange() {
        // a command's B/op: 64 in every window without the change, 96 with it; the pairs' log ratios are constant
        List<TrialResult> results = pairs(1.0).stream().map(r -> {
            Map<String, Double> metrics = new java.util.HashMap<>(r.metrics());
            metrics.put("Join:B/op", r.variant().equals("with") ? 96.0 : 64.0);
            metrics.put("Join:allocs/op", 2.0);
            return r.withMetrics(metrics);
        }).toList();

        String text = PairedSummary.format(results, ComparisonOptions.defaults());

        assertThat(text).containsPattern("Join:B/op +every window measured 64 without and 96 with: an exact change of "
                + "\\+50.00% \\(no test is needed, as the values do not vary\\)")
                .containsPattern("Join:allocs/op +every window measured 2 on both sides \\(no test");
        assertThat(text.lines().filter(l -> l.startsWith("Join:"))).noneMatch(l -> l.contains("not analysed"));
    }

    @Test
    void theSummarySaysWhatEachTestCouldDetectAndThePairsForOnePercent() {
        String text = PairedSummary.format(pairs(1.0), ComparisonOptions.defaults());

        assertThat(text).contains("Sensitivity at α = 0.05 with power 0.8: the smallest change each test detects at "
                + "this size (MDE), and the pairs of 2 windows that would detect 1%:");
        assertThat(text.lines().filter(l -> l.startsWith("cpu_us_per_req ")).toList())
                .anySatisfy(l -> assertThat(l).matches("cpu_us_per_req\\s+±\\d+\\.\\d+%\\s+[\\d,]+"));
    }

    @Test
    void theRobustCheckIsPrintedPerMetricAndSaysWhenItHasTooFewPairs() {
        String text = PairedSummary.format(pairs(1.0), ComparisonOptions.defaults());
        double[][] logRatios = new double[4][2];
        List<TrialResult> results = pairs(1.0);
        for (TrialResult r : results) {
            if (r.variant().equals("with")) {
                TrialResult without = results.get(r.ordinal() - 1);
                logRatios[r.pair().index()][r.pair().window()] = Math.log(r.metrics().get(MetricKeys.CPU_US_PER_REQ)
                        / without.metrics().get(MetricKeys.CPU_US_PER_REQ));
            }
        }
        RobustPairedChange expected = RobustPairedChange.of(logRatios, Alternative.TWO_SIDED, 0.95);

        assertThat(text).contains("Robust check: Huber's score of the windows' log ratios, tested by flipping the "
                + "signs of whole pairs");
        assertThat(text.lines().filter(l -> l.startsWith("cpu_us_per_req ")).toList()).anySatisfy(l -> assertThat(l)
                .matches("cpu_us_per_req\\s+" + java.util.regex.Pattern.quote(
                        Display.percent(expected.relativeChange().percent())) + "\\s+\\[-inf%, \\+inf%\\]\\s+"
                        + java.util.regex.Pattern.quote(Display.pValue(expected.pValue()).strip())));
        assertThat(text).contains("(with 4 pairs the least p is 2/2^4: an interval at 95% can be unbounded)");
    }

    @Test
    void theComponentsSayWhichWindowsPerPairWouldDetectTheLeastInThisRunsTime() {
        // 8 pairs of 3 windows whose log ratios differ only from window to window; each pair took 20 s to start
        // and 3.6 s per window of each variant (7.2 s per window of the two)
        List<TrialResult> results = new ArrayList<>();
        double[] noise = {1.05, 0.96, 1.01, 0.98, 1.04, 0.97, 1.02, 0.99, 1.03, 0.95, 1.00, 1.06};
        Map<String, String> costs = Map.of(PairCosts.SETUP, "20.000", PairCosts.SHARE, "3.600");
        int ordinal = 0;
        for (int pair = 0; pair < 8; pair++) {
            for (int window = 0; window < 3; window++) {
                for (String variant : List.of("without", "with")) {
                    double cpu = variant.equals("with") ? 40 * noise[(5 * pair + 7 * window) % noise.length] : 40;
                    results.add(new TrialResult(variant, ordinal++, TrialStatus.OK, Instant.EPOCH, Instant.EPOCH, 1,
                            Map.of(MetricKeys.CPU_US_PER_REQ, cpu), costs, null,
                            new PairPosition(pair, window, null, 0L, null, true)));
                }
            }
        }

        String text = PairedSummary.format(results, ComparisonOptions.defaults());

        assertThat(text).contains("a pair costing 20.0 s before its windows and 7.2 s per window, the windows per "
                + "pair that in this run's time would detect the smallest change (with power 0.8");
        String line = text.lines().filter(l -> l.startsWith("cpu_us_per_req ") && l.contains("m* =")).findFirst()
                .orElseThrow();
        assertThat(line).as("no variance between these pairs: m* is infinite, yet 3 x 8 is the best of 6 min")
                .matches("cpu_us_per_req\\s+0\\.00%\\s+\\d\\.\\d\\d%\\s+3 × 8 pairs, ±\\d\\.\\d\\d%, as this run; "
                        + "m\\* = ∞ \\(the between-pairs variance was estimated below 0 and taken as 0\\)");
        String sensitivity = text.lines().filter(l -> l.matches("cpu_us_per_req\\s+±\\S+\\s+[\\d,]+")).findFirst()
                .orElseThrow().split("\\s+")[1];
        assertThat(line).as("this run's design detects what its test does").contains("pairs, " + sensitivity + ",");
    }

    @Test
    void theSummaryShowsHowEachVariantMovedAcrossItsWindowsAndWarnsWhenTheyMovedApart() {
        List<TrialResult> results = new ArrayList<>();
        double[] noise = {1.01, 0.99, 1.02, 0.98, 1.00, 1.015, 0.985, 1.005};
        int ordinal = 0;
        for (int pair = 0; pair < noise.length; pair++) {
            for (int window = 0; window < 3; window++) {
                for (String variant : List.of("without", "with")) {
                    boolean with = variant.equals("with");
                    double n = noise[(pair + (with ? 2 * window + 3 : window)) % noise.length];
                    double cpu = (with ? 41 * (1 - 0.04 * window) : 40) * n;
                    results.add(new TrialResult(variant, ordinal++, TrialStatus.OK, Instant.EPOCH, Instant.EPOCH, 1,
                            Map.of(MetricKeys.CPU_US_PER_REQ, cpu), Map.of(), null,
                            new PairPosition(pair, window, null, 0L, null, true)));
                }
            }
        }

        String text = PairedSummary.format(results, ComparisonOptions.defaults());
        String oneWindow = PairedSummary.format(pairs(1.0).stream().filter(r -> r.pair().window() == 0).toList(),
                ComparisonOptions.defaults());

        assertThat(text).contains("Warmup: each JVM's change from its first window to its last");
        assertThat(text.lines().filter(l -> l.startsWith("cpu_us_per_req ") && l.contains("]")).toList())
                .anySatisfy(l -> assertThat(l).matches("cpu_us_per_req\\s+-8\\.\\d\\d%\\s+[-+]\\d\\.\\d\\d%"
                        + "\\s+-\\d+\\.\\d\\d% \\[.*\\]\\s+\\S+"));
        assertThat(text).contains("note (cpu_us_per_req): the variants' JVMs were still warming up differently");
        assertThat(oneWindow).as("one window per pair: no trend to tell").doesNotContain("Warmup:");
    }
}
