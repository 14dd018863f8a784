package io.perflab.analysis;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.perflab.stats.Alternative;
import io.perflab.stats.ComparisonResult;
import io.perflab.stats.ConstantChange;
import io.perflab.stats.RankSumResult;
import io.perflab.stats.StatWarning;
import io.perflab.stats.Summary;
import io.perflab.stats.TTestResult;
import io.perflab.stats.Verdict;
import io.perflab.system.ApiValues;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The JSON shape of one comparison (DESIGN's API table): {@code with}/{@code without} summaries, {@code welch},
 * {@code student}, {@code mannWhitney}, {@code effectSize}, {@code relativeChange}, {@code equivalence},
 * {@code power}, {@code verdict} and {@code warnings}, and {@code paired} only when the samples were compared as
 * pairs. Unbounded interval ends (one-sided tests, Fieller's unbounded set) and figures that do not exist (a zero
 * baseline) are {@code null}, never NaN or Infinity.
 */
public record ComparisonView(GroupView with, GroupView without, TTestView welch, TTestView student,
        RankSumView mannWhitney, EffectSizeView effectSize, @Schema(nullable = true) RelativeChangeView relativeChange,
        @Schema(nullable = true) EquivalenceView equivalence, @Schema(nullable = true) PowerView power,
        VerdictView verdict, List<WarningView> warnings,
        double confidenceLevel, @ApiValues(value = Alternative.class, written = "rName") String alternative,
        @JsonInclude(JsonInclude.Include.NON_NULL) TTestView paired) {

    /** Descriptive statistics of a group; {@code cv} is a fraction (0.02 = 2 %), null when the mean is 0. */
    public record GroupView(int n, double mean, double sd, double median, double min, double max, Double cv,
            double q1, double q3) {
    }

    /** A t-test; {@code ciLow}/{@code ciHigh} are null for an unbounded side. */
    public record TTestView(String method, double t, double df, double pValue, Double ciLow, Double ciHigh,
            double difference, double stderr) {
    }

    /** The rank-sum test with the Hodges–Lehmann shift; {@code confidenceLevel} is the level achieved. */
    public record RankSumView(String method, double w, double pValue, boolean exact, double estimate, Double ciLow,
            Double ciHigh, double confidenceLevel) {
    }

    /** Cohen's d and Hedges' g. */
    public record EffectSizeView(double cohenD, double hedgesG) {
    }

    /**
     * Percent change of the mean with Fieller's interval (null ends when unbounded); {@code percent} is null when
     * the baseline's mean is so near 0 that the change is not a finite number.
     */
    public record RelativeChangeView(Double percent, Double ciLowPercent, Double ciHighPercent) {
    }

    /** TOST within ±marginPercent of the baseline mean. */
    public record EquivalenceView(double marginPercent, double margin, double pValue, boolean equivalent) {
    }

    /**
     * Minimum detectable effect and runs per variant for the target effect, at α and the given power; the effect is
     * null where the baseline's mean is so near 0 that it is not a finite percentage.
     */
    public record PowerView(double power, Double minimumDetectableEffectPercent, double targetEffectPercent,
            long runsPerVariantForTarget) {
    }

    /** {@code improved}, {@code regressed}, {@code unchanged} or {@code inconclusive}, with the reason. */
    public record VerdictView(@ApiValues(value = Verdict.class, written = "label") String verdict, String reason,
                              double pValue) {
    }

    /**
     * The exact change of a metric whose every run measured one value on each side ({@link ConstantChange}).
     *
     * @param percent the change in percent of {@code without}; null when that is 0
     * @param verdict {@code unchanged}, {@code improved} or {@code regressed}
     */
    public record ConstantView(double without, double with, int runsWithout, int runsWith, double difference,
                               Double percent, @ApiValues(value = Verdict.class, written = "label",
                                       only = {"UNCHANGED", "IMPROVED", "REGRESSED"}) String verdict, String reason) {

        /** The view of an exact change. */
        public static ConstantView of(ConstantChange c) {
            return new ConstantView(c.without(), c.with(), c.withoutRuns(), c.withRuns(), c.difference(),
                    c.percent().orElse(null), c.verdict().label(), c.reason());
        }
    }

    /** A caveat: kind (e.g. {@code OUTLIERS}), group or null, message. */
    public record WarningView(@ApiValues(StatWarning.Kind.class) String kind, @Schema(nullable = true) String group,
            String message) {
    }

    /** The view of a result. */
    public static ComparisonView of(ComparisonResult r) {
        return new ComparisonView(group(r.with()), group(r.without()), test(r.welch()), test(r.student()),
                rank(r.mannWhitney()), new EffectSizeView(r.effectSize().cohenD(), r.effectSize().hedgesG()),
                r.relativeChange().map(c -> new RelativeChangeView(finite(c.percent()), finite(c.ciLowPercent()),
                        finite(c.ciHighPercent()))).orElse(null),
                r.equivalence().map(e -> new EquivalenceView(e.marginPercent(), e.margin(), e.pValue(),
                        e.equivalent())).orElse(null),
                r.power().map(p -> new PowerView(p.power(), finite(p.minimumDetectableEffectPercent()),
                        p.targetEffectPercent(), p.runsPerVariantForTarget())).orElse(null),
                new VerdictView(r.verdict().label(), r.decision().reason(), r.decision().pValue()),
                r.warnings().stream().map(ComparisonView::warning).toList(), r.options().confidenceLevel(),
                r.options().alternative().rName(), null);
    }

    /** This view with the paired t-test of the same samples ({@code t.test(with, without, paired = TRUE)}). */
    public ComparisonView withPaired(TTestResult pairedTest) {
        return new ComparisonView(with, without, welch, student, mannWhitney, effectSize, relativeChange, equivalence,
                power, verdict, warnings, confidenceLevel, alternative, test(pairedTest));
    }

    private static GroupView group(Summary s) {
        return new GroupView(s.n(), s.mean(), s.sd(), s.median(), s.min(), s.max(),
                s.coefficientOfVariation().isPresent() ? s.coefficientOfVariation().getAsDouble() : null, s.q1(),
                s.q3());
    }

    private static TTestView test(TTestResult t) {
        return new TTestView(t.method(), t.t(), t.df(), t.pValue(), finite(t.ciLow()), finite(t.ciHigh()),
                t.difference(), t.stdErr());
    }

    private static RankSumView rank(RankSumResult r) {
        return new RankSumView(r.method(), r.w(), r.pValue(), r.exact(), r.estimate(), finite(r.ciLow()),
                finite(r.ciHigh()), r.confidenceLevel());
    }

    private static WarningView warning(StatWarning w) {
        return new WarningView(w.kind().name(), w.group(), w.message());
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
