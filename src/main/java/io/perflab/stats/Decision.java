package io.perflab.stats;

/**
 * A verdict with the reason behind it, e.g. {@code REGRESSED} because "Welch p = 3.1e-08 < α = 0.05: the mean
 * rose 6.9 %; lower is better".
 *
 * @param verdict the verdict
 * @param reason one sentence naming the p-value, α and the change that decided it
 * @param pValue the (Holm-adjusted, when several metrics are judged together) Welch p-value the verdict used
 */
public record Decision(Verdict verdict, String reason, double pValue) {
}
