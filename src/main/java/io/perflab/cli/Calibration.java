package io.perflab.cli;

import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.Alternative;
import io.perflab.stats.Display;
import io.perflab.stats.Power;
import io.perflab.stats.TTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.distribution.BetaDistribution;

/**
 * What an A/A run says about the instrument: the trials of one interleaved plan, cut into consecutive blocks of
 * {@code runs} + {@code runs} trials, each block an A/A experiment judged by Welch's test as a real one would
 * be. Per headline metric: how often the test called a difference where there is none (the false-positive rate,
 * with its exact Clopper–Pearson interval), the trials' coefficient of variation, and the smallest change an experiment
 * of {@code mdeRuns} + {@code mdeRuns} trials would detect with 80 % power, from the spread of all trials.
 *
 * @param experiments blocks in the plan
 * @param runs trials per side in each block
 * @param alpha the significance level of each test
 * @param mdeRuns trials per side of the experiment whose minimum detectable effect is reported
 */
record Calibration(int experiments, int runs, double alpha, int mdeRuns) {

    /** The metrics an engine A/B is judged on. */
    static final List<String> HEADLINE = List.of(MetricKeys.USER_CPU_US_PER_REQ, MetricKeys.SYS_CPU_US_PER_REQ,
            MetricKeys.CPU_US_PER_REQ, MetricKeys.CTX_SWITCHES_PER_REQ, MetricKeys.REQS_PER_SEC,
            MetricKeys.ALLOC_BYTES_PER_REQ, MetricKeys.LATENCY_P50_US, MetricKeys.LATENCY_P99_US);
    /** The largest false-positive rate at α = 0.05 we accept from the instrument. */
    static final double FALSE_POSITIVE_TARGET = 0.10;
    private static final double POWER = 0.8;

    /** One metric's calibration. */
    record MetricCalibration(String metric, double mean, double cv, int tested, int falsePositives,
                             double rateLow, double rateHigh, double mdePercent) {

        double rate() {
            return tested == 0 ? Double.NaN : (double) falsePositives / tested;
        }
    }

    /** Calibrates every headline metric the trials carry. */
    List<MetricCalibration> analyze(List<TrialResult> trials) {
        List<MetricCalibration> rows = new ArrayList<>();
        for (String metric : HEADLINE) {
            double[] all = values(trials, metric, null, 0, Integer.MAX_VALUE);
            if (all.length < 2) {
                continue;
            }
            int tested = 0;
            int positives = 0;
            for (int block = 0; block < experiments; block++) {
                int from = block * 2 * runs;
                int to = from + 2 * runs;
                double[] with = values(trials, metric, "with", from, to);
                double[] without = values(trials, metric, "without", from, to);
                if (with.length < 2 || without.length < 2) {
                    continue;
                }
                double p = TTest.welch(with, without, Alternative.TWO_SIDED, 1 - alpha).pValue();
                if (Double.isNaN(p)) {
                    continue;
                }
                tested++;
                if (p < alpha) {
                    positives++;
                }
            }
            double mean = Arrays.stream(all).average().orElse(Double.NaN);
            double sd = Math.sqrt(Arrays.stream(all).map(v -> (v - mean) * (v - mean)).sum() / (all.length - 1));
            double low = Double.NaN;
            double high = Double.NaN;
            if (tested > 0) {
                low = positives == 0 ? 0 : beta(positives, tested - positives + 1).inverseCumulativeProbability(0.025);
                high = positives == tested ? 1
                        : beta(positives + 1, tested - positives).inverseCumulativeProbability(0.975);
            }
            double mde = 100 * Power.minimumDetectableDifference(sd, mdeRuns, alpha, POWER) / Math.abs(mean);
            rows.add(new MetricCalibration(metric, mean, sd / Math.abs(mean), tested, positives, low, high, mde));
        }
        return rows;
    }

    /** The report: the table, then the time an experiment of {@code mdeRuns} + {@code mdeRuns} would take. */
    String format(List<TrialResult> trials, Duration elapsed) {
        List<MetricCalibration> rows = analyze(trials);
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "A/A calibration: %d experiments of %d + %d trials, Welch at α = %s, "
                + "the same variant on both sides%n%n", experiments, runs, runs, Display.value(alpha)));
        String mdeHeader = "MDE " + mdeRuns + "+" + mdeRuns;
        String format = "%-22s %12s %7s %9s %7s %17s %9s %10s%n";
        s.append(String.format(Locale.ROOT, format, "metric", "mean", "CV", "false +", "rate", "95% CI",
                "≤ " + Display.value(FALSE_POSITIVE_TARGET), mdeHeader));
        for (MetricCalibration row : rows) {
            boolean met = row.tested() > 0 && row.rate() <= FALSE_POSITIVE_TARGET;
            s.append(String.format(Locale.ROOT, format, row.metric(), Display.value(row.mean()),
                    percent(row.cv() * 100), row.falsePositives() + "/" + row.tested(),
                    row.tested() == 0 ? "" : String.format(Locale.ROOT, "%.2f", row.rate()),
                    row.tested() == 0 ? "" : String.format(Locale.ROOT, "[%.3f, %.3f]", row.rateLow(), row.rateHigh()),
                    row.tested() == 0 ? "" : met ? "yes" : "no", percent(row.mdePercent())));
        }
        long ok = trials.stream().filter(TrialResult::ok).count();
        if (ok > 0) {
            Duration perTrial = elapsed.dividedBy(trials.size());
            Duration experiment = perTrial.multipliedBy(2L * mdeRuns);
            s.append(String.format(Locale.ROOT, "%n%d trials in %s (%s per trial, process start included): "
                    + "an experiment of %d + %d trials takes about %s.%n", trials.size(), minutes(elapsed),
                    seconds(perTrial), mdeRuns, mdeRuns, minutes(experiment)));
        }
        s.append("false +: A/A experiments whose Welch p < α (no Holm adjustment: one metric at a time); "
                + "CV = sd/mean over all successful trials; MDE: the change a " + mdeRuns + " + " + mdeRuns
                + " experiment detects with 80 % power at α, from that sd.\n");
        return s.toString();
    }

    /** The beta distribution whose quantiles bound a binomial proportion (Clopper–Pearson). */
    private static BetaDistribution beta(double a, double b) {
        return new BetaDistribution(null, a, b, 1e-14);
    }

    /** The values of {@code metric} in successful trials with ordinals in [from, to), of one variant or both. */
    private static double[] values(List<TrialResult> trials, String metric, String variant, int from, int to) {
        return trials.stream()
                .filter(t -> t.ok() && t.ordinal() >= from && t.ordinal() < to
                        && (variant == null || t.variant().equals(variant)))
                .map(t -> t.metrics().get(metric))
                .filter(v -> v != null && Double.isFinite(v))
                .mapToDouble(Double::doubleValue)
                .toArray();
    }

    private static String percent(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.2f%%", value) : "";
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

    private static String minutes(Duration d) {
        long s = Math.round(d.toMillis() / 1000.0);
        return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }
}
