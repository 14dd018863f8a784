package io.perflab.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The entry point: compares a metric's {@code with} sample against its {@code without} (baseline) sample.
 *
 * <pre>{@code
 * ComparisonResult r = Comparison.compare(with, without, Direction.LOWER_IS_BETTER, ComparisonOptions.defaults());
 * r.welch().pValue();            // as R's t.test(with, without)$p.value
 * r.relativeChange().get();      // 100·(x̄ − ȳ)/|ȳ| with Fieller's interval
 * r.decision().verdict();        // IMPROVED / REGRESSED / UNCHANGED / INCONCLUSIVE
 * r.warnings();                  // outliers, drift, too few samples, …
 * }</pre>
 *
 * <p>Invalid input is an {@link IllegalArgumentException} whose message names the group and the problem:
 * fewer than 2 observations, NaN or infinite values, or both groups constant ("data are essentially constant",
 * as R). Nothing undefined is returned as NaN: relative figures are omitted, with a warning, when the baseline
 * mean is 0; a negative baseline mean gives them in percent of its absolute value, with a warning
 * ({@link RelativeChange}).
 */
public final class Comparison {

    /** Fewer observations than this in a group earn a {@link StatWarning.Kind#TOO_FEW_SAMPLES} warning. */
    public static final int RECOMMENDED_SAMPLES = 6;

    private Comparison() {
    }

    /** Compares plain samples. */
    public static ComparisonResult compare(double[] with, double[] without, Direction direction,
            ComparisonOptions options) {
        return compare(Sample.of(with), Sample.of(without), direction, options);
    }

    /** Compares samples that may carry run order (for the drift check). */
    public static ComparisonResult compare(Sample with, Sample without, Direction direction,
            ComparisonOptions options) {
        if (with == null || without == null) {
            throw new IllegalArgumentException("no '" + (with == null ? "with" : "without") + "' sample given");
        }
        if (direction == null || options == null) {
            throw new IllegalArgumentException("direction and options must be given");
        }
        double[] xs = with.valuesShared();
        double[] ys = without.valuesShared();
        Inputs.requireSample(xs, "with", 2);
        Inputs.requireSample(ys, "without", 2);
        Summary x = Summary.of(xs, "with");
        Summary y = Summary.of(ys, "without");
        double level = options.confidenceLevel();
        TTestResult welch = TTest.welch(x, y, options.alternative(), level);
        TTestResult student = TTest.student(x, y, options.alternative(), level);
        RankSumResult rank = RankSumTest.sorted(x.sortedValues(), y.sortedValues(), options.alternative(), level);
        EffectSize effect = EffectSize.of(x, y);

        List<StatWarning> warnings = new ArrayList<>();
        warnings.addAll(Diagnostics.of("with", with, x, options.alpha()));
        warnings.addAll(Diagnostics.of("without", without, y, options.alpha()));
        if (rank.confidenceLevel() < level) {
            warnings.add(new StatWarning(StatWarning.Kind.CONFIDENCE_LEVEL_NOT_ACHIEVABLE, null,
                    "the exact rank test cannot reach a " + Display.level(level) + " interval with " + x.n()
                            + " and " + y.n() + " samples: its interval is at "
                            + Display.level(rank.confidenceLevel())));
        }
        if (!rank.exact() && x.n() < RankSumTest.EXACT_LIMIT && y.n() < RankSumTest.EXACT_LIMIT) {
            warnings.add(new StatWarning(StatWarning.Kind.TIES, null,
                    "ties in the data: the rank test uses the normal approximation instead of the exact distribution"));
        }

        Optional<RelativeChange> change = Optional.empty();
        Optional<Equivalence> equivalence = Optional.empty();
        Optional<Power> power = Optional.empty();
        if (y.mean() == 0) {
            warnings.add(new StatWarning(StatWarning.Kind.BASELINE_NEAR_ZERO, "without",
                    "the 'without' mean is 0: relative change, equivalence and power are omitted"));
        } else {
            RelativeChange rc = RelativeChange.fieller(x, y, welch.df(), level);
            if (y.mean() < 0) {
                warnings.add(new StatWarning(StatWarning.Kind.NEGATIVE_BASELINE, "without", "the 'without' mean is"
                        + " negative: Δ % is the change in percent of its absolute value, 100·(x̄ − ȳ)/|ȳ|, so that it"
                        + " has the sign of the difference"));
            }
            if (!rc.bounded()) {
                warnings.add(new StatWarning(StatWarning.Kind.BASELINE_NEAR_ZERO, "without",
                        "the 'without' mean is not distinguishable from 0: the interval of the relative change is"
                                + " unbounded (Fieller)"));
            }
            change = Optional.of(rc);
            equivalence = Optional.of(Equivalence.tost(welch, options.equivalenceMarginPercent(),
                    options.alpha()));
            power = Optional.of(Power.of(x, y, welch, options.alpha(), options.power(),
                    options.targetEffectPercent()));
        }
        Decision decision = Verdicts.decide(welch.pValue(), welch, change, equivalence, power, direction, options);
        return new ComparisonResult(x, y, welch, student, rank, effect, change, equivalence, power, warnings,
                decision, direction, options);
    }
}
