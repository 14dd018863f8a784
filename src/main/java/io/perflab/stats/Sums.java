package io.perflab.stats;

/**
 * Compensated sums (Neumaier's variant of Kahan summation), so that means and variances of values such as
 * {@code 1e9 + small noise} keep their digits.
 *
 * @see <a href="https://doi.org/10.1002/zamm.19740540106">A. Neumaier (1974), Rundungsfehleranalyse einiger
 *     Verfahren zur Summation endlicher Summen, ZAMM 54</a>
 */
final class Sums {

    private Sums() {
    }

    static double sum(double[] values) {
        double sum = 0;
        double c = 0;
        for (double v : values) {
            double t = sum + v;
            c += Math.abs(sum) >= Math.abs(v) ? (sum - t) + v : (v - t) + sum;
            sum = t;
        }
        return sum + c;
    }

    /**
     * The mean as R computes it: the sum divided by n, then refined by the mean of the residuals.
     */
    static double mean(double[] values) {
        int n = values.length;
        double m = sum(values) / n;
        double sum = 0;
        double c = 0;
        for (double v : values) {
            double r = v - m;
            double t = sum + r;
            c += Math.abs(sum) >= Math.abs(r) ? (sum - t) + r : (r - t) + sum;
            sum = t;
        }
        return m + (sum + c) / n;
    }

    /** Σ (x − m)², compensated; the two-pass formula (never the textbook Σx² − n·m²). */
    static double sumOfSquaredDeviations(double[] values, double m) {
        double sum = 0;
        double c = 0;
        for (double v : values) {
            double d = v - m;
            double r = d * d;
            double t = sum + r;
            c += Math.abs(sum) >= Math.abs(r) ? (sum - t) + r : (r - t) + sum;
            sum = t;
        }
        return sum + c;
    }
}
