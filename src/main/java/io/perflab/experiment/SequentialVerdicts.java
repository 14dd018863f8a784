package io.perflab.experiment;

import io.perflab.display.Format;
import io.perflab.paired.SequentialStopping;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Direction;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.RFormat;
import io.perflab.stats.RelativeChange;
import io.perflab.stats.SequentialLook;
import io.perflab.stats.SequentialPlan;
import io.perflab.stats.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results of a sequential paired run, whose length its stopping rule chose by looking at its targets after every
 * pair ({@link SequentialStopping}). An ordinary t-test of a target's pairs ignores that the run stopped when the
 * target looked settled, and so overstates its significance: of a target, the change's interval and the verdict are
 * therefore the rule's last look's — its repeated confidence interval, which keeps its level however many looks were
 * taken, and its boundary's decision. The ordinary t-test stays beside them, labelled as ignoring the looks.
 *
 * <p>The last look decides, not the first that crossed its boundary: a settled target is still looked at while
 * other targets are open, and its last repeated interval, from the most pairs, keeps its level whatever the rule
 * did (Jennison and Turnbull, ch. 9); its verdict is significant exactly when that interval leaves out no change,
 * so the verdict and the interval shown beside it always agree. The other metrics keep their analysis, with a note
 * that the run's length was chosen by looks at the targets, not at them.
 *
 * @see <a href="https://doi.org/10.1201/9780367805326">C. Jennison, B. W. Turnbull (2000), Group Sequential
 *     Methods with Applications to Clinical Trials, ch. 9 (repeated confidence intervals)</a>
 */
final class SequentialVerdicts {

    /** Of a run whose length no look chose. */
    static final SequentialVerdicts NONE = new SequentialVerdicts(List.of());

    /** Per target metric, its looks in the order they were made; empty for a run without targets. */
    private final Map<String, List<SequentialLookRepository.LookRecord>> byMetric = new LinkedHashMap<>();

    /** A run's stored looks, in the order they were made ({@link SequentialLookRepository#looks}). */
    SequentialVerdicts(List<SequentialLookRepository.LookRecord> looks) {
        looks.forEach(l -> byMetric.computeIfAbsent(l.metric(), k -> new ArrayList<>()).add(l));
    }

    /**
     * {@code c} as the run's looks make it: of a target, the last look's change, interval and verdict, with the
     * t-test that ignores the looks beside them; of another metric of a run with targets, {@code c} with a note.
     *
     * @param a the analysis of all the pairs, which {@code c} shows
     * @param holm the Holm-adjusted p of {@code a}'s t-test, across the experiment's metrics
     */
    MetricComparison apply(MetricComparison c, Direction direction, PairedAnalysis a, double holm,
                           ComparisonOptions options) {
        if (byMetric.isEmpty()) {
            return c;
        }
        List<SequentialLookRepository.LookRecord> looks = byMetric.get(c.key());
        if (looks == null) {
            return c.withWarning("the run's length was chosen by the stopping rule's looks at "
                    + String.join(", ", byMetric.keySet()) + ", not at this metric: its figures are those of a fixed"
                    + " number of pairs, not adjusted for the looks");
        }
        SequentialLookRepository.LookRecord last = looks.get(looks.size() - 1);
        String spending = SequentialStopping.SPENDING.label();
        Verdict verdict = verdict(direction, last, options);
        MetricComparison.Change change = new MetricComparison.Change(c.change().difference(),
                c.change().differenceCiLow(), c.change().differenceCiHigh(), last.percent(), last.ciLowPercent(),
                last.ciHighPercent());
        MetricComparison.Tests tests = new MetricComparison.Tests(c.tests().t(), c.tests().df(), null, null,
                c.tests().mannWhitneyPValue(), c.tests().hodgesLehmann(), c.tests().cohenD());
        RelativeChange adjusted = adjusted(looks, a);
        MetricComparison.Sequential sequential = new MetricComparison.Sequential(looks.size(), last.pairs(),
                last.plannedPairs(), spending, last.t(), last.tBoundary(), last.tFutility(), last.outcome(),
                c.change().ciLowPercent(), c.change().ciHighPercent(), c.tests().pValue(), finite(holm),
                adjusted == null ? null : adjusted.percent(), adjusted == null ? null : adjusted.ciLowPercent(),
                adjusted == null ? null : adjusted.ciHighPercent());
        List<String> warnings = new ArrayList<>();
        warnings.add(adjustedNote(c, a, last, looks.size(), spending));
        warnings.addAll(c.warnings());
        return new MetricComparison(c.metric(), c.groups(), change, tests, verdict.label(),
                reason(direction, verdict, last, spending, options), warnings, c.sensitivity(), c.error(),
                c.paired().withSequential(sequential));
    }

    /**
     * The change adjusted for stopping ({@link SequentialLook#stagewise}) at the look that ended the target — the
     * first that settled it, else its last look if that ended the run — made again from the pairs as the rule made
     * it (the rule's α, its spending, the pairs at its looks); null when no look ended the target or the look cannot
     * be made again from {@code a}'s pairs.
     */
    static RelativeChange adjusted(List<SequentialLookRepository.LookRecord> looks, PairedAnalysis a) {
        int end = -1;
        for (int i = 0; i < looks.size() && end < 0; i++) {
            if (SequentialLook.Outcome.valueOf(looks.get(i).outcome()).settles()) {
                end = i;
            }
        }
        if (end < 0 && !looks.isEmpty() && SequentialLook.Outcome.LAST_LOOK.name().equals(
                looks.get(looks.size() - 1).outcome())) {
            end = looks.size() - 1;
        }
        if (end < 0) {
            return null;
        }
        int[] pairsAtLooks = looks.subList(0, end + 1).stream()
                .mapToInt(SequentialLookRepository.LookRecord::pairs).toArray();
        double alpha = ComparisonOptions.defaults().alpha();
        try {
            RelativeChange change = new SequentialPlan(SequentialStopping.SPENDING, alpha,
                    looks.get(end).plannedPairs(), 0).look(pairsAtLooks, a, false).stagewise(1 - alpha);
            return Double.isFinite(change.percent()) ? change : null;
        } catch (IllegalArgumentException | IllegalStateException cannot) {
            return null;
        }
    }

    /**
     * Significant when the look crossed its boundary — when its repeated interval leaves out no change — the sign of
     * the change and the direction telling which way; else unchanged when that interval lies within ±margin.
     */
    private static Verdict verdict(Direction direction, SequentialLookRepository.LookRecord last,
                                   ComparisonOptions options) {
        if (SequentialLook.Outcome.SIGNIFICANT.name().equals(last.outcome()) && last.percent() != null) {
            return direction.improves(last.percent()) ? Verdict.IMPROVED : Verdict.REGRESSED;
        }
        double margin = options.equivalenceMarginPercent();
        return last.ciLowPercent() != null && last.ciHighPercent() != null && last.ciLowPercent() > -margin
                && last.ciHighPercent() < margin ? Verdict.UNCHANGED : Verdict.INCONCLUSIVE;
    }

    private static String reason(Direction direction, Verdict verdict, SequentialLookRepository.LookRecord last,
                                 String spending, ComparisonOptions options) {
        String alpha = "α = " + RFormat.format(options.alpha(), 7).strip();
        String test = "|t| = " + Format.statistic(last.absT())
                + (verdict == Verdict.IMPROVED || verdict == Verdict.REGRESSED ? " ≥ " : " < ")
                + (last.tBoundary() == null ? "∞" : Format.statistic(last.tBoundary())) + ", the " + spending
                + " boundary of the last look (look " + last.look() + ", " + last.pairs() + " of "
                + last.plannedPairs() + " planned pairs)";
        String interval = "its repeated interval " + Format.percentInterval(last.ciLowPercent(),
                last.ciHighPercent());
        String margin = "±" + RFormat.format(options.equivalenceMarginPercent(), 7).strip() + "%";
        String futile = SequentialLook.Outcome.FUTILE.name().equals(last.outcome()) ? "; the look stopped it as "
                + "futile" + (last.tFutility() == null ? "" : " (|t| below its futility bound "
                + Format.statistic(last.tFutility()) + ")") + ": a change of the target's smallest size (mde=) was"
                + " unlikely to be found by the last planned pair" : "";
        return switch (verdict) {
            case IMPROVED, REGRESSED -> test + ": significant at " + alpha + " despite the looks; the change is "
                    + Format.percent(last.percent()) + " (" + (direction == Direction.LOWER_IS_BETTER ? "lower"
                    : "higher") + " is better)";
            case UNCHANGED -> "no significant change at " + alpha + " (" + test + ") and " + interval + " lies within "
                    + margin + futile;
            case INCONCLUSIVE -> "no significant change at " + alpha + " (" + test + "), but " + interval
                    + " reaches beyond " + margin + futile;
        };
    }

    /** What the figures shown are, and what the t-test that ignores the looks says. */
    private static String adjustedNote(MetricComparison c, PairedAnalysis a, SequentialLookRepository.LookRecord last,
                                       int looks, String spending) {
        String pairs = last.pairs() == a.pairs() ? last.pairs() + " pairs"
                : last.pairs() + " of the " + a.pairs() + " pairs analysed (no look took the later ones)";
        return "Δ % and its CI adjusted for " + Format.count(looks, "look", "looks") + " (" + spending + "): the"
                + " repeated confidence interval of the last look, at " + pairs + "; ignoring the looks, the t-test"
                + " over the " + a.pairs() + " pairs gives " + Format.percent(c.change().percent()) + " "
                + Format.percentInterval(c.change().ciLowPercent(), c.change().ciHighPercent()) + ", p = "
                + Format.pValue(c.tests().pValue()) + ", Holm p = " + Format.pValue(c.tests().holmPValue());
    }

    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }
}
