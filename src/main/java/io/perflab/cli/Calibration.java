package io.perflab.cli;

import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.Alternative;
import io.perflab.stats.Display;
import io.perflab.stats.Power;
import io.perflab.stats.Proportion;
import io.perflab.stats.TTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What an A/A run says about the instrument: the trials of one interleaved plan, cut into consecutive blocks of
 * {@code runs} + {@code runs} trials, each block an A/A experiment judged by Welch's test as a real one would
 * be. Per headline metric: how often the test called a difference where there is none (the false-positive rate,
 * with its exact Clopper–Pearson interval), the trials' coefficient of variation beside the floor that the
 * kernel's sampling of user versus system time puts under it, and the smallest change an experiment
 * of {@code mdeRuns} + {@code mdeRuns} trials would detect with 80 % power, from the spread of all trials.
 *
 * @param experiments blocks in the plan
 * @param runs trials per side in each block
 * @param alpha the significance level of each test
 * @param mdeRuns trials per side of the experiment whose minimum detectable effect is reported
 */
record Calibration(int experiments, int runs, double alpha, int mdeRuns) {

    /** The largest false-positive rate at α = 0.05 we accept from the instrument. */
    static final double FALSE_POSITIVE_TARGET = 0.10;

    /**
     * The fewest A/A experiments that can show the rate within {@link #FALSE_POSITIVE_TARGET}: with no false positive
     * among them, the upper end of the 95 % Clopper–Pearson interval is at most the target (36 for 0.1).
     */
    static final int FEWEST_TO_SHOW_TARGET = fewestToShowTarget();
    private static final double POWER = 0.8;

    /**
     * One metric's calibration.
     *
     * @param floorPercent the CV that the kernel's tick sampling of user versus system time gives the metric by
     *     itself (the median over the trials), NaN where there is none or it is not known
     * @param falsePositives A/A experiments whose test called a difference, out of those tested (null if none
     *     could be tested)
     */
    record MetricCalibration(String metric, double mean, double cv, double floorPercent, Proportion falsePositives,
                             double mdePercent) {
    }

    /** Calibrates every headline metric the trials carry. */
    List<MetricCalibration> analyze(List<TrialResult> trials) {
        List<MetricCalibration> rows = new ArrayList<>();
        for (Spread spread : Spread.of(trials)) {
            String metric = spread.metric();
            int tested = 0;
            int positives = 0;
            for (int block = 0; block < experiments; block++) {
                int from = block * 2 * runs;
                int to = from + 2 * runs;
                double[] with = Spread.values(trials, metric, VariantName.WITH, from, to);
                double[] without = Spread.values(trials, metric, VariantName.WITHOUT, from, to);
                if (with.length < 2 || without.length < 2) {
                    continue;
                }
                double p;
                try {
                    p = TTest.welch(with, without, Alternative.TWO_SIDED, 1 - alpha).pValue();
                } catch (IllegalArgumentException constant) {
                    continue; // both sides without variation: no test, as R's t.test refuses
                }
                if (Double.isNaN(p)) {
                    continue;
                }
                tested++;
                if (p < alpha) {
                    positives++;
                }
            }
            Proportion rate = tested == 0 ? null : Proportion.clopperPearson(positives, tested, 0.95);
            double mde = 100 * Power.minimumDetectableDifference(spread.sd(), mdeRuns, alpha, POWER)
                    / Math.abs(spread.mean());
            rows.add(new MetricCalibration(metric, spread.mean(), spread.cv(), spread.floorPercent(), rate, mde));
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
        // as wide as the longest metric's name (tick_user_cpu_us_per_req pushed its row's columns out of line)
        int width = rows.stream().mapToInt(row -> row.metric().length()).max().orElse(0);
        String format = "%-" + Math.max(22, width) + "s %12s %7s %7s %9s %7s %17s %9s %10s%n";
        s.append(String.format(Locale.ROOT, format, "metric", "mean", "CV", "floor", "false +", "rate", "95% CI",
                "≤ " + Display.value(FALSE_POSITIVE_TARGET), mdeHeader));
        for (MetricCalibration row : rows) {
            Proportion fp = row.falsePositives();
            s.append(String.format(Locale.ROOT, format, row.metric(), Display.value(row.mean()),
                    Spread.percent(row.cv() * 100), Spread.percent(row.floorPercent()),
                    fp == null ? "0/0" : fp.successes() + "/" + fp.trials(),
                    fp == null ? "" : String.format(Locale.ROOT, "%.2f", fp.rate()),
                    fp == null ? "" : String.format(Locale.ROOT, "[%.3f, %.3f]", fp.low(), fp.high()),
                    fp == null ? "" : withinTarget(fp),
                    Spread.percent(row.mdePercent())));
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
        String target = Display.value(FALSE_POSITIVE_TARGET);
        s.append("≤ " + target + ": is the false-positive rate within " + target + "? yes when its 95 % CI lies at "
                + "or below " + target + "; too few when the rate is at most " + target + " but its CI reaches above "
                + "(too few experiments to show it: with no false positive that takes " + FEWEST_TO_SHOW_TARGET
                + "); no when the rate itself is above " + target + ".\n");
        Spread.floorNote(trials).ifPresent(s::append);
        return s.toString();
    }

    /**
     * The {@code ≤ 0.1} column: {@code yes} when the interval's upper end is at most the target (the run shows the
     * rate within it), {@code no} when the rate itself is above it, else {@code too few}: the rate is within the
     * target but the run is too short to tell it from a rate above.
     */
    static String withinTarget(Proportion falsePositives) {
        if (falsePositives.rate() > FALSE_POSITIVE_TARGET) {
            return "no";
        }
        return falsePositives.high() <= FALSE_POSITIVE_TARGET ? "yes" : "too few";
    }

    private static int fewestToShowTarget() {
        int experiments = 1;
        while (Proportion.clopperPearson(0, experiments, 0.95).high() > FALSE_POSITIVE_TARGET) {
            experiments++;
        }
        return experiments;
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

    private static String minutes(Duration d) {
        long s = Math.round(d.toMillis() / 1000.0);
        return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }
}
