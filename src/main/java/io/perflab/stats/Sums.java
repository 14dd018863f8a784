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
     * The mean as R computes it: the sum divided by n, then refined by the mean of the residuals. R sums the
     * residuals in long double; here each residual x − m is taken exactly, as its rounded value and its rounding
     * error (Knuth's TwoSum), both summed compensated. A residual rounded to double would lose m where m is below
     * half an ulp of x, and the refinement would then add the sum again: {0.1, 0.2, −0.3} gave 1.39e-17, where R and
     * the exact mean give 9.25e-18.
     */
    static double mean(double[] values) {
        int n = values.length;
        double m = sum(values) / n;
        double[] residuals = {0, 0};
        for (double v : values) {
            double r = v - m;
            double back = r - v;
            add(residuals, r);
            add(residuals, (v - (r - back)) + (-m - back));
        }
        return m + (residuals[0] + residuals[1]) / n;
    }

    /** Adds {@code x} to the compensated sum {@code {sum, compensation}}. */
    private static void add(double[] sum, double x) {
        double t = sum[0] + x;
        sum[1] += Math.abs(sum[0]) >= Math.abs(x) ? (sum[0] - t) + x : (x - t) + sum[0];
        sum[0] = t;
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
