package io.perflab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.math3.analysis.UnivariateFunction;
import org.apache.commons.math3.analysis.solvers.BrentSolver;

/**
 * Over 300 lines: the spending functions, the recursive integration and the boundary search share one grid.
 *
 * <p>Boundaries of two-sided group-sequential tests: at look k the standardized statistic Z<sub>k</sub> is compared
 * with ±c<sub>k</sub>, and the test rejects at the first look where |Z<sub>k</sub>| ≥ c<sub>k</sub>. With information
 * I<sub>k</sub> at look k (for a mean of pairs: the number of pairs), the statistics have the canonical joint
 * distribution: multivariate normal, Cov(Z<sub>j</sub>, Z<sub>k</sub>) = √(I<sub>j</sub>/I<sub>k</sub>) for j ≤ k.
 *
 * <p>The probabilities of crossing are computed by the recursive numerical integration of Armitage, McPherson and
 * Rowe: with S<sub>k</sub> = Z<sub>k</sub>√I<sub>k</sub>, whose increments are independent N(0, I<sub>k</sub> −
 * I<sub>k−1</sub>) under H₀, the sub-density of S<sub>k</sub> on the paths that have not stopped is
 * f<sub>k</sub>(s) = ∫ f<sub>k−1</sub>(u)·φ((s − u)/√Δ<sub>k</sub>)/√Δ<sub>k</sub> du over the continuation region
 * |u| &lt; c<sub>k−1</sub>√I<sub>k−1</sub>, and the probability of first crossing at look k is
 * ∫ f<sub>k−1</sub>(u)·[Φ̄((c<sub>k</sub>√I<sub>k</sub> − u)/√Δ<sub>k</sub>) + Φ̄((c<sub>k</sub>√I<sub>k</sub> +
 * u)/√Δ<sub>k</sub>)] du. Integrals use Simpson's rule on a uniform grid of spacing at most a twelfth of the
 * narrower of the kernels on either side, over at most ±9 standard deviations; boundaries are found by Newton's
 * method safeguarded by bisection to 1e-12. The boundaries agree with the published tables to their last digit
 * and with a direct numerical integration of the joint normal distribution to about 1e-8 (see the tests).
 *
 * <p>Error spending (Lan and DeMets): c<sub>k</sub> solves P(first crossing at look k) = α*(t<sub>k</sub>) −
 * α*(t<sub>k−1</sub>), so a boundary depends only on the looks made so far, and their number and timing need not
 * be fixed in advance (only not chosen by the data).
 *
 * @see <a href="https://doi.org/10.2307/2343787">P. Armitage, C. K. McPherson, B. C. Rowe (1969), Repeated
 *     significance tests on accumulating data, J. R. Stat. Soc. A 132(2)</a>
 * @see <a href="https://doi.org/10.1093/biomet/70.3.659">K. K. G. Lan, D. L. DeMets (1983), Discrete sequential
 *     boundaries for clinical trials, Biometrika 70(3)</a>
 * @see <a href="https://doi.org/10.1201/9780367805326">C. Jennison, B. W. Turnbull (2000), Group Sequential
 *     Methods with Applications to Clinical Trials, Chapman &amp; Hall/CRC, ch. 19 (numerical computations)</a>
 */
public final class GroupSequential {

    /** Grid points per standard deviation of the narrower kernel. */
    private static final double POINTS_PER_SD = 12;
    /** Sub-densities are integrated over at most this many standard deviations of S<sub>k</sub>. */
    private static final double SD_RANGE = 9;
    private static final double TOLERANCE = 1e-12;
    private static final double MAX_BOUNDARY = 40;
    /** The stage-wise estimate and interval are sought within the observed z ± this (in units of Z). */
    private static final double STAGEWISE_BRACKET = 12;
    private static final int STAGEWISE_EVALUATIONS = 200;
    private static final int STAGEWISE_WIDENINGS = 10;
    private static final double STAGEWISE_TOLERANCE = 1e-9;

    private GroupSequential() {
    }

    /**
     * Lan–DeMets boundaries of a two-sided test at {@code alpha} for looks at the given information fractions:
     * the cumulative α spent by look k is α*(t<sub>k</sub>).
     *
     * @param fractions increasing information fractions in (0, 1], one per look so far
     * @throws IllegalArgumentException if the fractions are empty, not increasing or outside (0, 1]
     */
    public static List<SequentialBoundary> boundaries(SpendingFunction spending, double alpha, double[] fractions) {
        requireIncreasing(fractions, "information fractions");
        double[] spent = new double[fractions.length];
        for (int k = 0; k < fractions.length; k++) {
            if (fractions[k] > 1) {
                throw new IllegalArgumentException("information fraction " + (k + 1) + " is " + fractions[k]
                        + ": it must not exceed 1");
            }
            spent[k] = spending.spent(alpha, fractions[k]);
        }
        return describe(fractions, spent, bounds(fractions, spent));
    }

    static List<SequentialBoundary> describe(double[] fractions, double[] spent, double[] bounds) {
        List<SequentialBoundary> out = new ArrayList<>(bounds.length);
        for (int k = 0; k < bounds.length; k++) {
            out.add(new SequentialBoundary(k + 1, fractions[k], spent[k], bounds[k],
                    Double.isInfinite(bounds[k]) ? 0 : 2 * Distributions.normalUpper(bounds[k])));
        }
        return List.copyOf(out);
    }

    /**
     * Boundaries c<sub>k</sub> for looks with the given information (any positive scale) and cumulative α to spend
     * by each look; the last entry of {@code cumulativeAlpha} may exceed the spending function's value, e.g. to
     * spend all the rest at a final look. A look with nothing to spend has c<sub>k</sub> = +∞.
     */
    static double[] bounds(double[] information, double[] cumulativeAlpha) {
        requireIncreasing(information, "information levels");
        int looks = information.length;
        double[] bounds = new double[looks];
        Stage stage = Stage.start();
        double previousSpent = 0;
        double guess = 2;
        for (int k = 0; k < looks; k++) {
            bounds[k] = stage.boundaryFor(cumulativeAlpha[k] - previousSpent, information[k], guess);
            previousSpent = Math.max(previousSpent, cumulativeAlpha[k]);
            if (k + 1 < looks) {
                stage = stage.next(bounds[k], information[k], spacing(information, k));
                guess = Double.isInfinite(bounds[k]) ? guess : bounds[k];
            }
        }
        return bounds;
    }

    /**
     * Non-binding futility bounds b<sub>k</sub> of a two-sided test whose efficacy boundaries are {@code efficacy}:
     * the test stops to accept H₀ at the first look where |Z<sub>k</sub>| &lt; b<sub>k</sub>, and b<sub>k</sub>
     * solves P<sub>θ</sub>(first futility stop at look k) = β*(t<sub>k</sub>) − β*(t<sub>k−1</sub>) when the score's
     * increments have mean θ ({@code drift}) per unit of information: the change worth finding. β is spent under that
     * alternative as α is spent under H₀ (Pampallona, Tsiatis and Gao 2001), paths that crossed an efficacy boundary
     * or an earlier futility bound taken out. Non-binding: the efficacy boundaries were computed without the futility
     * bounds, so stopping for futility, or not, never raises the type I error above α. A look whose efficacy boundary
     * is +∞ may still stop for futility; b<sub>k</sub> is at most c<sub>k</sub> (all that is left stops there).
     *
     * @param information the information at every look (any positive scale, the drift's unit), increasing
     * @param efficacy the efficacy boundaries c<sub>k</sub> of those looks ({@link #bounds})
     * @param drift θ ≥ 0, the mean of the score's increments per unit of information under the alternative
     * @param cumulativeBeta the type II error to have spent by each look, non-decreasing, each below 1
     * @see <a href="https://doi.org/10.1201/9780367805326">C. Jennison, B. W. Turnbull (2000), Group Sequential
     *     Methods with Applications to Clinical Trials, ch. 5 (two-sided tests with early stopping to accept H₀) and
     *     ch. 7 (error spending); S. Pampallona, A. A. Tsiatis, K. Kim (2001), Interim monitoring of group sequential
     *     trials using spending functions for the type I and type II error probabilities, Drug Information Journal
     *     35</a>
     */
    public static double[] futilityBounds(double[] information, double[] efficacy, double drift,
                                          double[] cumulativeBeta) {
        requireIncreasing(information, "information levels");
        if (efficacy.length != information.length || cumulativeBeta.length != information.length) {
            throw new IllegalArgumentException("need one efficacy boundary and one cumulative β per look");
        }
        if (!(drift >= 0) || Double.isInfinite(drift)) {
            throw new IllegalArgumentException("the drift must be finite and ≥ 0, got " + drift);
        }
        double[] futility = new double[information.length];
        Stage stage = Stage.start(drift);
        double spent = 0;
        for (int k = 0; k < information.length; k++) {
            double beta = cumulativeBeta[k];
            if (!(beta >= 0 && beta < 1)) {
                throw new IllegalArgumentException("a cumulative β is in [0, 1), got " + beta);
            }
            futility[k] = stage.innerBoundaryFor(beta - spent, efficacy[k], information[k]);
            spent = Math.max(spent, beta);
            if (k + 1 < information.length) {
                stage = stage.next(efficacy[k], futility[k], information[k], spacing(information, k));
            }
        }
        return futility;
    }

    /**
     * The probability under H₀ of first crossing ±c<sub>k</sub> at each look, for given boundaries; their sum is
     * the test's type I error.
     */
    static double[] exitProbabilities(double[] information, double[] bounds) {
        requireIncreasing(information, "information levels");
        double[] exit = new double[information.length];
        Stage stage = Stage.start();
        for (int k = 0; k < information.length; k++) {
            exit[k] = stage.exit(bounds[k], information[k]);
            if (k + 1 < information.length) {
                stage = stage.next(bounds[k], information[k], spacing(information, k));
            }
        }
        return exit;
    }

    /**
     * The probability, when the score's increments have mean {@code drift} per unit of information, of an outcome
     * at least as high as (the last look, {@code z}) in the stage-wise ordering: crossing the upper boundary at an
     * earlier look, or going on to the last look and having Z ≥ z there.
     *
     * @param information the information at every look, the last being the look the experiment stopped at
     * @param bounds the boundaries of the looks before the last (a longer array's further entries are unused)
     * @param z the Z statistic observed at the last look
     */
    static double stagewiseUpper(double[] information, double[] bounds, double z, double drift) {
        requireIncreasing(information, "information levels");
        int last = information.length - 1;
        Stage stage = Stage.start(drift);
        double p = 0;
        for (int k = 0; k < last; k++) {
            p += stage.above(bounds[k], information[k]);
            stage = stage.next(bounds[k], information[k], spacing(information, k));
        }
        return p + stage.above(z, information[last]);
    }

    /**
     * The estimate and confidence interval of a group-sequential test's effect by the stage-wise ordering of its
     * outcomes (Armitage 1957; Tsiatis, Rosner and Mehta 1984): an experiment that stopped at look K with statistic
     * z is ordered above every path that crossed the upper boundary earlier and below every one that crossed the
     * lower; at look K by z. For η = E[Z<sub>K</sub>], the drift scaled to the stopping look, the estimate is the η
     * at which the outcome observed is the median one (the median-unbiased estimate), and the interval's ends are
     * the η at which it is the upper and lower (1 − confidence)/2 quantile. A single look gives back z and z ± the
     * normal quantile; after early looks, an experiment that stopped early on a large z is pulled back towards 0,
     * which the naive estimate z is not (its bias is the reason for this estimate).
     *
     * @param information the information at every look up to the stopping one (any positive scale), increasing
     * @param bounds the z boundaries of the looks before the stopping one
     * @param z the Z statistic observed at the stopping look
     * @return {lower end, median-unbiased estimate, upper end} of η
     * @see <a href="https://doi.org/10.2307/2530924">A. A. Tsiatis, G. L. Rosner, C. R. Mehta (1984), Exact
     *     confidence intervals following a group sequential test, Biometrics 40(3)</a>
     * @see <a href="https://doi.org/10.1093/biomet/77.4.875">S. S. Emerson, T. R. Fleming (1990), Parameter
     *     estimation following group sequential hypothesis testing, Biometrika 77(4)</a>
     */
    public static double[] stagewiseEstimate(double[] information, double[] bounds, double z, double confidence) {
        requireIncreasing(information, "information levels");
        if (!Double.isFinite(z)) {
            throw new IllegalArgumentException("the observed statistic must be finite, got " + z);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be between 0 and 1 (exclusive), got " + confidence);
        }
        if (bounds == null || bounds.length < information.length - 1) {
            throw new IllegalArgumentException("need the boundaries of the " + (information.length - 1)
                    + " looks before the last, got " + (bounds == null ? 0 : bounds.length));
        }
        double root = Math.sqrt(information[information.length - 1]);
        double tail = (1 - confidence) / 2;
        return new double[] {stagewiseQuantile(information, bounds, z, root, tail),
            stagewiseQuantile(information, bounds, z, root, 0.5),
            stagewiseQuantile(information, bounds, z, root, 1 - tail)};
    }

    /**
     * The η with stagewiseUpper = p, which increases with η: found by Brent's method in a bracket around z, widened
     * until it holds the root.
     */
    private static double stagewiseQuantile(double[] information, double[] bounds, double z, double root, double p) {
        UnivariateFunction excess = eta -> stagewiseUpper(information, bounds, z, eta / root) - p;
        double low = z - STAGEWISE_BRACKET;
        double high = z + STAGEWISE_BRACKET;
        // an outcome reached only past boundaries that a drift near z would have crossed sits far from z
        for (int widened = 0; excess.value(low) > 0; widened++) {
            requireBracket(widened, p, low);
            low -= STAGEWISE_BRACKET;
        }
        for (int widened = 0; excess.value(high) < 0; widened++) {
            requireBracket(widened, p, high);
            high += STAGEWISE_BRACKET;
        }
        BrentSolver solver = new BrentSolver(0, STAGEWISE_TOLERANCE, STAGEWISE_TOLERANCE);
        return solver.solve(STAGEWISE_EVALUATIONS, excess, low, high, Math.min(Math.max(z, low), high));
    }

    private static void requireBracket(int widened, double p, double reached) {
        if (widened == STAGEWISE_WIDENINGS) {
            throw new IllegalStateException("the stage-wise " + p + " quantile lies beyond " + reached);
        }
    }

    /**
     * Pocock's (1977) constant boundary c<sub>k</sub> = C<sub>P</sub> for {@code looks} equally spaced looks: the C
     * with P(|Z<sub>k</sub>| ≥ C at some look) = α.
     *
     * @see <a href="https://doi.org/10.1093/biomet/64.2.191">S. J. Pocock (1977), Group sequential methods in the
     *     design and analysis of clinical trials, Biometrika 64(2)</a>
     */
    public static double pocockConstant(int looks, double alpha) {
        double[] weights = new double[requireLooks(looks)];
        Arrays.fill(weights, 1);
        return constant(weights, alpha);
    }

    /**
     * O'Brien and Fleming's (1979) constant C<sub>B</sub> for {@code looks} equally spaced looks, with boundaries
     * c<sub>k</sub> = C<sub>B</sub>·√(K/k).
     *
     * @see <a href="https://doi.org/10.2307/2530245">P. C. O'Brien, T. R. Fleming (1979), A multiple testing
     *     procedure for clinical trials, Biometrics 35(3)</a>
     */
    public static double obrienFlemingConstant(int looks, double alpha) {
        double[] weights = new double[requireLooks(looks)];
        for (int k = 0; k < looks; k++) {
            weights[k] = Math.sqrt((double) looks / (k + 1));
        }
        return constant(weights, alpha);
    }

    private static double constant(double[] weights, double alpha) {
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be between 0 and 1 (exclusive), got " + alpha);
        }
        double[] information = new double[weights.length];
        for (int k = 0; k < weights.length; k++) {
            information[k] = k + 1;
        }
        double low = 0;
        double high = MAX_BOUNDARY;
        while (high - low > TOLERANCE * high) {
            double mid = 0.5 * (low + high);
            double[] bounds = new double[weights.length];
            for (int k = 0; k < weights.length; k++) {
                bounds[k] = mid * weights[k];
            }
            double total = 0;
            for (double p : exitProbabilities(information, bounds)) {
                total += p;
            }
            if (total > alpha) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return 0.5 * (low + high);
    }

    private static int requireLooks(int looks) {
        if (looks < 1) {
            throw new IllegalArgumentException("need at least 1 look, got " + looks);
        }
        return looks;
    }

    private static void requireIncreasing(double[] values, String what) {
        if (values == null || values.length == 0) {
            throw new IllegalArgumentException("no " + what + " given");
        }
        for (int k = 0; k < values.length; k++) {
            if (!(values[k] > 0) || Double.isInfinite(values[k]) || (k > 0 && !(values[k] > values[k - 1]))) {
                throw new IllegalArgumentException(what + " must be positive and increasing, got "
                        + Arrays.toString(values));
            }
        }
    }

    /** The grid spacing for the sub-density at look k, resolving both its own kernel and the next one. */
    private static double spacing(double[] information, int k) {
        double own = Math.sqrt(information[k] - (k == 0 ? 0 : information[k - 1]));
        double next = Math.sqrt(information[k + 1] - information[k]);
        return Math.min(own, next) / POINTS_PER_SD;
    }

    /**
     * The sub-density of S<sub>k</sub> on the paths still running after look k, held at Simpson nodes with the
     * rule's weights folded in ({@code mass[i]} = wᵢ·f(uᵢ)); the start is a unit mass at 0 with information 0.
     */
    private record Stage(double[] nodes, double[] mass, double information, double drift) {

        static Stage start() {
            return start(0);
        }

        /** The start of paths whose increments have mean {@code drift} per unit of information. */
        static Stage start(double drift) {
            return new Stage(new double[] {0}, new double[] {1}, 0, drift);
        }

        /** P(first crossing ±c at the next look, with information {@code next}). */
        double exit(double c, double next) {
            if (Double.isInfinite(c)) {
                return 0;
            }
            double sd = Math.sqrt(next - information);
            double b = c * Math.sqrt(next);
            double shift = drift * (next - information);
            double sum = 0;
            for (int i = 0; i < nodes.length; i++) {
                sum += mass[i] * (Distributions.normalUpper((b - nodes[i] - shift) / sd)
                        + Distributions.normalUpper((b + nodes[i] + shift) / sd));
            }
            return sum;
        }

        /** P(Z ≥ z at the next look, with information {@code next}) on the paths still running. */
        double above(double z, double next) {
            if (z == Double.POSITIVE_INFINITY) {
                return 0;
            }
            double sd = Math.sqrt(next - information);
            double b = z * Math.sqrt(next);
            double shift = drift * (next - information);
            double sum = 0;
            for (int i = 0; i < nodes.length; i++) {
                sum += mass[i] * Distributions.normalUpper((b - nodes[i] - shift) / sd);
            }
            return sum;
        }

        /** d exit / dc. */
        private double exitSlope(double c, double next) {
            double sd = Math.sqrt(next - information);
            double root = Math.sqrt(next);
            double b = c * root;
            double shift = drift * (next - information);
            double sum = 0;
            for (int i = 0; i < nodes.length; i++) {
                sum += mass[i] * (density((b - nodes[i] - shift) / sd) + density((b + nodes[i] + shift) / sd));
            }
            return -sum * root / sd;
        }

        /** P(|Z| &lt; b at the next look, with information {@code next}) on the paths still running. */
        double inside(double b, double next) {
            return b > 0 ? above(-b, next) - above(b, next) : 0;
        }

        /**
         * The b in [0, c] with inside(b) = {@code increment}; 0 when nothing is to be spent, c when the paths below
         * c hold no more than it.
         */
        double innerBoundaryFor(double increment, double c, double next) {
            if (!(increment > 0)) {
                return 0;
            }
            double top = Double.isInfinite(c) ? MAX_BOUNDARY : c;
            if (inside(top, next) <= increment) {
                return c;
            }
            UnivariateFunction excess = b -> inside(b, next) - increment;
            return new BrentSolver(0, TOLERANCE, TOLERANCE).solve(STAGEWISE_EVALUATIONS, excess, 0, top, top / 2);
        }

        /** The c ≥ 0 with exit(c) = {@code increment}; +∞ when nothing is to be spent. */
        double boundaryFor(double increment, double next, double guess) {
            if (!(increment > 0)) {
                return Double.POSITIVE_INFINITY;
            }
            if (exit(0, next) <= increment) {
                return 0;
            }
            double low = 0;
            double high = guess;
            while (exit(high, next) > increment) {
                low = high;
                high = Math.min(MAX_BOUNDARY, 2 * high);
                if (high == MAX_BOUNDARY) {
                    break;
                }
            }
            double c = Math.min(Math.max(guess, low), high);
            for (int i = 0; i < 200; i++) {
                double f = exit(c, next) - increment;
                if (f > 0) {
                    low = c;
                } else {
                    high = c;
                }
                double slope = exitSlope(c, next);
                double newton = slope < 0 ? c - f / slope : Double.NaN;
                if (Math.abs(newton - c) <= TOLERANCE * c || high - low <= TOLERANCE * high) {
                    return Double.isNaN(newton) ? c : newton;
                }
                c = newton > low && newton < high ? newton : 0.5 * (low + high);
            }
            return c;
        }

        /**
         * The sub-density on the paths still running after the next look (information {@code next}, boundary c), at
         * Simpson nodes of spacing at most h.
         */
        Stage next(double c, double next, double h) {
            return next(c, 0, next, h);
        }

        /**
         * As {@link #next(double, double, double)}, the paths with |Z| &lt; b (a futility stop) taken out too: the
         * sub-density on b√I ≤ |s| ≤ c√I, each side integrated on its own nodes.
         */
        Stage next(double c, double b, double next, double h) {
            double sd = Math.sqrt(next - information);
            double shift = drift * (next - information);
            double root = Math.sqrt(next);
            double half = Math.min(Double.isInfinite(c) ? Double.POSITIVE_INFINITY : c * root,
                    SD_RANGE * root + Math.abs(drift) * next);
            double inner = Math.max(0, b) * root;
            if (!(half > inner)) {
                return new Stage(new double[] {0}, new double[] {0}, next, drift);
            }
            if (inner == 0) {
                return integrated(-half, half, h, sd, shift, next);
            }
            Stage low = integrated(-half, -inner, h, sd, shift, next);
            Stage high = integrated(inner, half, h, sd, shift, next);
            double[] to = Arrays.copyOf(low.nodes, low.nodes.length + high.nodes.length);
            double[] toMass = Arrays.copyOf(low.mass, to.length);
            System.arraycopy(high.nodes, 0, to, low.nodes.length, high.nodes.length);
            System.arraycopy(high.mass, 0, toMass, low.mass.length, high.mass.length);
            return new Stage(to, toMass, next, drift);
        }

        /** The sub-density at the next look on [from, to], at Simpson nodes of spacing at most h. */
        private Stage integrated(double from, double to, double h, double sd, double shift, double next) {
            int intervals = 2 * (int) Math.ceil((to - from) / (2 * h));
            double step = (to - from) / intervals;
            double[] at = new double[intervals + 1];
            double[] atMass = new double[intervals + 1];
            for (int j = 0; j <= intervals; j++) {
                double s = from + j * step;
                double f = 0;
                for (int i = 0; i < nodes.length; i++) {
                    f += mass[i] * density((s - nodes[i] - shift) / sd);
                }
                double weight = j == 0 || j == intervals ? 1 : (j % 2 == 1 ? 4 : 2);
                at[j] = s;
                atMass[j] = f / sd * weight * step / 3;
            }
            return new Stage(at, atMass, next, drift);
        }

        private static double density(double z) {
            return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
        }
    }
}
