package io.perflab.stats;

import java.util.Arrays;
import java.util.List;

/**
 * Sequential stopping of a paired experiment that keeps its type I error at α although it looks at the data
 * after every pair (or every few pairs): a two-sided group-sequential test with Lan–DeMets error spending over the
 * pairs, and the repeated confidence interval of the mean at every look.
 *
 * <p><b>Why group-sequential.</b> A PerfLab experiment has a time budget, hence a largest number of pairs N; error
 * spending over the information fraction t = n/N then gives boundaries that are exact for normal pair means, can
 * be checked against published tables, and with O'Brien–Fleming-type spending lose almost no power at the last
 * look against a fixed-size experiment (final boundary 2.03 against 1.96 for five looks). An always-valid
 * confidence sequence (e.g. Howard et al. 2021) needs no N but pays for it with intervals that are wider at every
 * n. Looks are made when pairs finish, never chosen by the data, as error spending requires.
 *
 * <p><b>Look k</b>, after n<sub>k</sub> pairs with values rᵢ (the pair log ratios of {@link PairedAnalysis}):
 * <ol>
 *   <li>α<sub>k</sub> = α*(n<sub>k</sub>/N) is spent by then — all of α at the last look (n<sub>k</sub> = N, or
 *       the budget is spent), as is usual when an experiment ends early for reasons that are not in the data;
 *   <li>the z boundary c<sub>k</sub> follows by {@link GroupSequential}, with information n<sub>j</sub> at look j;
 *   <li>the variance is unknown, so the one-sample t statistic of the rᵢ is compared with the t quantile at the
 *       same nominal level, c<sup>t</sup><sub>k</sub> = t<sub>1−p<sub>k</sub>/2, n<sub>k</sub>−1</sub> with
 *       p<sub>k</sub> = 2(1 − Φ(c<sub>k</sub>)) (the "significance level approach" of Jennison and Turnbull).
 *       This is an approximation, exact for known variance: in a simulation of five looks at 4, 8, 12, 16 and
 *       20 normal pairs at α = 0.05 the false-positive rate was 0.052 with O'Brien–Fleming-type spending and
 *       0.055 with Pocock-type, which spends more at the 3-degrees-of-freedom first look (see the tests). An
 *       early look with few pairs has a very large t boundary and in practice stops only for precision;
 *   <li>the repeated confidence interval r̄ ± c<sup>t</sup><sub>k</sub>·SE: all of them cover the true mean
 *       together with probability about 1 − α, so the interval of whichever look the experiment stops at, for
 *       whatever reason, keeps its level;
 *   <li>the experiment stops when |t| ≥ c<sup>t</sup><sub>k</sub> (the verdict is settled at level α), when the
 *       repeated interval is as narrow as the target ({@link #targetHalfWidthPercent}), or at the last look.
 *       Stopping for precision never adds type I error: it only ends the chances to cross later;
 *   <li>with a smallest change worth finding d ({@link #smallestChangePercent}), it also stops once such a change
 *       is unlikely to be found: futile when |t|, taken to the normal scale at the same two-sided level, is below
 *       the look's futility bound b<sub>k</sub> (the look keeps b<sub>k</sub> on the t scale,
 *       {@link SequentialLook#tFutility}, for the page to show). The bounds spend β = {@value #BETA} under the
 *       alternative that the pairs' mean log ratio is ±log(1 + d) — a drift of log(1 + d)/s per pair, s the pairs'
 *       SD so far —
 *       with O'Brien–Fleming-type spending β*(t) = 2 − 2Φ(z<sub>1−β/2</sub>/√t), and are non-binding
 *       ({@link GroupSequential#futilityBounds}): the efficacy boundaries are those above, computed without them,
 *       so the false-positive rate stays at most α. A change of d or more is then found a few points less often
 *       than without the stop (at most the β spent before the last look), and an experiment without one ends early,
 *       which is what a futility stop is for: on the stored trials of a 2-vCPU host, after about three quarters of
 *       20 planned pairs and half of 40 (docs/PERFORMANCE.md, "The futility stop built").
 *       The bounds are recomputed at each look with that look's s, as information-based monitoring does, and no
 *       look before {@value #MIN_FUTILE_PAIRS} pairs stops as futile.
 * </ol>
 *
 * @param spending the spending function; {@link SpendingFunction#OBRIEN_FLEMING} unless early stopping on large
 *     effects matters more than the final look's power
 * @param alpha two-sided type I error of the whole sequence of looks
 * @param maxPairs N, the most pairs the experiment will run (from its budget), ≥ 2
 * @param targetHalfWidthPercent stop once the repeated interval of the change is at most ± this many percent,
 *     100·(e<sup>h</sup> − 1) for half-width h of the log-ratio interval; 0 for no precision target
 * @param smallestChangePercent d, the smallest change worth finding, in percent: stop as futile once a change of
 *     ±d is unlikely to be found by the last look; 0 for no futility stop
 * @see <a href="https://doi.org/10.1201/9780367805326">C. Jennison, B. W. Turnbull (2000), Group Sequential
 *     Methods with Applications to Clinical Trials, ch. 3 (unknown variance) and ch. 9 (repeated confidence
 *     intervals)</a>
 * @see <a href="https://doi.org/10.1214/20-AOS1991">S. R. Howard, A. Ramdas, J. McAuliffe, J. Sekhon (2021),
 *     Time-uniform, nonparametric, nonasymptotic confidence sequences, Ann. Statist. 49(2)</a>
 */
public record SequentialPlan(SpendingFunction spending, double alpha, int maxPairs, double targetHalfWidthPercent,
                             double smallestChangePercent) {

    /** The type II error at the smallest change worth finding that the futility bounds spend. */
    public static final double BETA = 0.1;
    /**
     * The fewest pairs a look stops as futile at: the drift of the alternative is read from the pairs' SD, and from
     * fewer pairs that SD is too uncertain (from 4 pairs its 90 % upper confidence bound is 2.3 times it, from 10
     * 1.5 times); a look this early spends almost no β anyway (0.1 % of it at a tenth of 40 pairs).
     */
    public static final int MIN_FUTILE_PAIRS = 10;

    /** Validates the plan. */
    public SequentialPlan {
        if (spending == null) {
            throw new IllegalArgumentException("a spending function must be given");
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be between 0 and 1 (exclusive), got " + alpha);
        }
        if (maxPairs < 2) {
            throw new IllegalArgumentException("the most pairs must be at least 2, got " + maxPairs);
        }
        if (!(targetHalfWidthPercent >= 0) || Double.isInfinite(targetHalfWidthPercent)) {
            throw new IllegalArgumentException("target half-width must be a percentage ≥ 0 (0 for none), got "
                    + targetHalfWidthPercent);
        }
        if (!(smallestChangePercent >= 0) || Double.isInfinite(smallestChangePercent)) {
            throw new IllegalArgumentException("the smallest change must be a percentage ≥ 0 (0 for none), got "
                    + smallestChangePercent);
        }
    }

    /** A plan without a futility stop. */
    public SequentialPlan(SpendingFunction spending, double alpha, int maxPairs, double targetHalfWidthPercent) {
        this(spending, alpha, maxPairs, targetHalfWidthPercent, 0);
    }

    /** O'Brien–Fleming-type spending at {@code alpha} over at most {@code maxPairs} pairs, no precision target. */
    public static SequentialPlan of(double alpha, int maxPairs) {
        return new SequentialPlan(SpendingFunction.OBRIEN_FLEMING, alpha, maxPairs, 0);
    }

    public SequentialPlan withSpending(SpendingFunction value) {
        return new SequentialPlan(value, alpha, maxPairs, targetHalfWidthPercent, smallestChangePercent);
    }

    public SequentialPlan withTargetHalfWidthPercent(double value) {
        return new SequentialPlan(spending, alpha, maxPairs, value, smallestChangePercent);
    }

    public SequentialPlan withSmallestChangePercent(double value) {
        return new SequentialPlan(spending, alpha, maxPairs, targetHalfWidthPercent, value);
    }

    /**
     * Evaluates the current look on the pair log ratios of a paired design.
     *
     * @param pairsAtLooks the pairs analysed at every look so far, the last being {@code analysis.pairs()}
     * @param analysis the analysis of the pairs done
     * @param budgetSpent whether the time budget ends the experiment at this look
     * @see #look(int[], double[], boolean)
     */
    public SequentialLook look(int[] pairsAtLooks, PairedAnalysis analysis, boolean budgetSpent) {
        double[] ratios = analysis.pairLogRatios().stream().mapToDouble(Double::doubleValue).toArray();
        return look(pairsAtLooks, ratios, budgetSpent);
    }

    /**
     * Evaluates the current look.
     *
     * @param pairsAtLooks the pairs done at every look so far, increasing, the last being the current look; each at
     *     least 2 and at most {@link #maxPairs}
     * @param pairValues the values of the pairs done, in order (at least as many as the last look; the first
     *     {@code pairsAtLooks[k]} belong to look k)
     * @param budgetSpent whether this is the last look although fewer than {@link #maxPairs} pairs are done (the
     *     time budget is spent): the rest of α is spent now
     * @throws IllegalArgumentException for looks out of order or range, or pair values that are not finite or are
     *     essentially constant
     */
    public SequentialLook look(int[] pairsAtLooks, double[] pairValues, boolean budgetSpent) {
        if (pairsAtLooks == null || pairsAtLooks.length == 0) {
            throw new IllegalArgumentException("no looks given");
        }
        int looks = pairsAtLooks.length;
        int n = pairsAtLooks[looks - 1];
        double[] information = new double[looks];
        double[] fractions = new double[looks];
        double[] spent = new double[looks];
        for (int k = 0; k < looks; k++) {
            int pairs = pairsAtLooks[k];
            if (pairs < 2 || pairs > maxPairs || (k > 0 && pairs <= pairsAtLooks[k - 1])) {
                throw new IllegalArgumentException("pairs at the looks must increase from at least 2 to at most "
                        + maxPairs + ", got " + Arrays.toString(pairsAtLooks));
            }
            information[k] = pairs;
            fractions[k] = (double) pairs / maxPairs;
            spent[k] = spending.spent(alpha, fractions[k]);
        }
        boolean last = budgetSpent || n == maxPairs;
        if (last) {
            spent[looks - 1] = alpha;
        }
        if (pairValues == null || pairValues.length < n) {
            throw new IllegalArgumentException("look " + looks + " is at " + n + " pairs but "
                    + (pairValues == null ? 0 : pairValues.length) + " pair values were given");
        }
        double[] values = Arrays.copyOf(pairValues, n);
        List<SequentialBoundary> boundaries = GroupSequential.describe(fractions, spent,
                GroupSequential.bounds(information, spent));
        SequentialBoundary current = boundaries.get(looks - 1);
        TTestResult test = TTest.oneSample(values, "pair values", Alternative.TWO_SIDED, 0.95);
        double df = n - 1.0;
        double tBoundary = Double.isInfinite(current.z()) || current.nominalPValue() == 0 ? Double.POSITIVE_INFINITY
                : Distributions.tUpperQuantile(current.nominalPValue() / 2, df);
        double half = tBoundary * test.stdErr();
        double mean = test.difference();
        RelativeChange change = new RelativeChange(100 * Math.expm1(mean), 100 * Math.expm1(mean - half),
                100 * Math.expm1(mean + half));
        double halfWidthPercent = 100 * Math.expm1(half);
        double absT = Math.abs(test.t());
        double tFutility = smallestChangePercent > 0 && n >= MIN_FUTILE_PAIRS && !last && absT < tBoundary
                ? futilityBoundary(information, fractions, boundaries, df, test.stdErr() * Math.sqrt(n))
                : Double.NaN;
        SequentialLook.Outcome outcome;
        if (absT >= tBoundary) {
            outcome = SequentialLook.Outcome.SIGNIFICANT;
        } else if (targetHalfWidthPercent > 0 && halfWidthPercent <= targetHalfWidthPercent) {
            outcome = SequentialLook.Outcome.PRECISE_ENOUGH;
        } else if (last) {
            outcome = SequentialLook.Outcome.LAST_LOOK;
        } else if (absT < tFutility) {
            outcome = SequentialLook.Outcome.FUTILE;
        } else {
            outcome = SequentialLook.Outcome.CONTINUE;
        }
        return new SequentialLook(looks, n, current.informationFraction(), boundaries, test.t(), df, test.stdErr(),
                tBoundary, tFutility, mean, mean - half, mean + half, change, halfWidthPercent, outcome);
    }

    /**
     * The futility bound for |t| at the current look, the last of {@code information}, on {@code df} degrees of
     * freedom, the pairs' SD being {@code sd} (see the class comment): the normal bound b<sub>k</sub> taken to the t
     * scale at the same two-sided level, as the efficacy boundary is, so that |t| is below it exactly when |t| taken
     * to the normal scale is below b<sub>k</sub>. NaN when the drift is not finite (no futility stop), 0 when
     * b<sub>k</sub> ≤ 0, +∞ when it is beyond the normal scale's reach.
     */
    private double futilityBoundary(double[] information, double[] fractions, List<SequentialBoundary> boundaries,
                                    double df, double sd) {
        double drift = Math.log1p(smallestChangePercent / 100) / sd;
        if (!Double.isFinite(drift)) {
            return Double.NaN;
        }
        double[] efficacy = boundaries.stream().mapToDouble(SequentialBoundary::z).toArray();
        double zBeta = Distributions.normalQuantile(1 - BETA / 2);
        double[] beta = Arrays.stream(fractions).map(f -> 2 * Distributions.normalUpper(zBeta / Math.sqrt(f)))
                .toArray();
        double[] futility = GroupSequential.futilityBounds(information, efficacy, drift, beta);
        double bound = futility[futility.length - 1];
        if (Double.isNaN(bound)) {
            return Double.NaN;
        }
        if (bound <= 0) {
            return 0;
        }
        double upper = Distributions.normalUpper(bound);
        return upper > 0 ? Distributions.tUpperQuantile(upper, df) : Double.POSITIVE_INFINITY;
    }
}
