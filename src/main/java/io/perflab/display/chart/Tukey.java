package io.perflab.display.chart;

import io.perflab.stats.Summary;
import java.util.Arrays;

/**
 * A box plot's figures for one sample: quartiles and median (type 7, from {@link Summary}), the mean, Tukey's
 * fences 1.5 IQR beyond the quartiles, and the whiskers: the most extreme samples within the fences.
 *
 * @param sorted the samples in ascending order
 */
record Tukey(double[] sorted, double q1, double median, double q3, double mean) {

    static Tukey of(double[] values) {
        Summary summary = Summary.of(values, "box");
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return new Tukey(sorted, summary.q1(), summary.median(), summary.q3(), summary.mean());
    }

    double lowFence() {
        return q1 - 1.5 * (q3 - q1);
    }

    double highFence() {
        return q3 + 1.5 * (q3 - q1);
    }

    boolean isOutlier(double v) {
        return v < lowFence() || v > highFence();
    }

    double lowWhisker() {
        return Arrays.stream(sorted).filter(v -> v >= lowFence()).min().orElse(q1);
    }

    double highWhisker() {
        return Arrays.stream(sorted).filter(v -> v <= highFence()).max().orElse(q3);
    }

    int outliers() {
        return (int) Arrays.stream(sorted).filter(this::isOutlier).count();
    }

    /**
     * The samples to draw: all of them when at most {@code max} lie within the fences; else every outlier and
     * {@code max} of the others at evenly spaced ranks, the smallest and the largest among them.
     */
    double[] thinned(int max) {
        double[] inside = Arrays.stream(sorted).filter(v -> !isOutlier(v)).toArray();
        if (inside.length <= max) {
            return sorted;
        }
        double[] shown = new double[max + sorted.length - inside.length];
        int k = 0;
        for (double v : sorted) {
            if (isOutlier(v)) {
                shown[k++] = v;
            }
        }
        for (int i = 0; i < max; i++) {
            shown[k++] = inside[(int) Math.round(i * (inside.length - 1.0) / (max - 1))];
        }
        return shown;
    }
}
