package io.perflab.stats;

import java.util.Optional;

/**
 * The verdict rule, in one place: {@code improved}/{@code regressed} when the (Holm-adjusted) Welch p-value is
 * below α, the sign of the difference and the metric's {@link Direction} telling which; {@code unchanged} when
 * TOST shows the change lies within ±margin; otherwise {@code inconclusive}.
 */
final class Verdicts {

    private Verdicts() {
    }

    static Decision decide(double pValue, TTestResult welch, Optional<RelativeChange> change,
            Optional<Equivalence> equivalence, Optional<Power> power, Direction direction, ComparisonOptions options) {
        return decide(pValue, false, welch, change, equivalence, power, direction, options);
    }

    /**
     * The verdict on {@code pValue}; when it is {@code adjusted} (Holm's, across an experiment's metrics) the reason
     * names Welch's own p-value and the adjusted one that decided, so that it agrees with both as they are shown.
     */
    static Decision decide(double pValue, boolean adjusted, TTestResult welch, Optional<RelativeChange> change,
            Optional<Equivalence> equivalence, Optional<Power> power, Direction direction, ComparisonOptions options) {
        double alpha = options.alpha();
        String p = adjusted ? Display.pEquals(welch.pValue()) + ", Holm-adjusted " + Display.pEquals(pValue)
                : Display.pEquals(pValue);
        String alphaText = "α = " + RFormat.format(alpha, 7).strip();
        String changeText = change.map(c -> "the mean changed " + Display.percent(c.percent()))
                .orElse("the mean changed by " + Display.value(welch.difference()));
        String better = direction == Direction.LOWER_IS_BETTER ? "lower is better" : "higher is better";
        if (pValue < alpha) {
            Verdict v = direction.improves(welch.difference()) ? Verdict.IMPROVED : Verdict.REGRESSED;
            return new Decision(v, "Welch " + p + " < " + alphaText + ": " + changeText + " (" + better + ")",
                    pValue);
        }
        if (equivalence.isPresent() && equivalence.get().equivalent()) {
            Equivalence e = equivalence.get();
            return new Decision(Verdict.UNCHANGED, "no significant change (Welch " + p + " ≥ " + alphaText
                    + ") and TOST shows it is within ±" + RFormat.format(e.marginPercent(), 7).strip() + "% ("
                    + Display.pEquals(e.pValue()) + ")", pValue);
        }
        String margin = equivalence.map(e -> "±" + RFormat.format(e.marginPercent(), 7).strip() + "%")
                .orElse("the margin");
        String runs = power.map(w -> w.runsPerVariantForTarget() >= Power.MAX_RUNS ? ""
                : "; about " + w.runsPerVariantForTarget() + " runs per variant would detect a "
                        + RFormat.format(w.targetEffectPercent(), 7).strip() + "% change").orElse("");
        return new Decision(Verdict.INCONCLUSIVE, "no significant change (Welch " + p + " ≥ " + alphaText
                + "), but equivalence within " + margin + " is not shown either" + runs, pValue);
    }
}
