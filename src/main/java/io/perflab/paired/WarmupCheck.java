package io.perflab.paired;

import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Display;
import io.perflab.stats.Holm;
import io.perflab.stats.WindowDrift;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The check that a paired experiment's two variants were equally warmed up ({@link WindowDrift}): a trend both
 * share across their windows cancels, since window j is compared with window j; a trend that differs means the
 * change measured depends on where in its warmup each window fell — the change may lie in how fast a variant's code
 * reaches its steady state rather than in its steady cost. Judged per measured metric, the differences' p-values
 * Holm-adjusted across them (the metrics scaled to the host's speed restate the measured ones and are left out).
 * The one place that decides and says it, for the command line and the experiment page.
 */
public final class WarmupCheck {

    private WarmupCheck() {
    }

    /**
     * One metric's drift with its Holm-adjusted p-value.
     *
     * @param drift how each variant moved from its first window to its last, and the test of their difference
     * @param adjustedP the difference's p-value, Holm-adjusted across the metrics judged
     */
    public record Judged(WindowDrift drift, double adjustedP) {

        /** Whether the variants drifted differently at level {@code alpha}. */
        public boolean differs(double alpha) {
            return adjustedP < alpha;
        }

        /** The variants' drifts and their difference, as a sentence. */
        public String describe() {
            return "from its first window to its last 'with' moved " + Display.percent(drift.withPercent()).strip()
                    + ", 'without' " + Display.percent(drift.withoutPercent()).strip() + " (a difference of "
                    + Display.percent(drift.relativeDifference().percent()).strip() + " " + Display.percentInterval(
                            drift.relativeDifference().ciLowPercent(), drift.relativeDifference().ciHighPercent())
                    + ", Holm-adjusted " + Display.pEquals(adjustedP) + ", over " + drift.pairs() + " pairs)";
        }
    }

    /**
     * The drift of each of {@code metrics} that {@code samples} measured in at least two windows per pair and that
     * is not scaled to the host's speed, in the order given; metrics whose drift cannot be told are left out.
     */
    public static Map<String, Judged> judge(PairedSamples samples, List<String> metrics, ComparisonOptions options) {
        Map<String, WindowDrift> drifts = new LinkedHashMap<>();
        if (samples.windowsPerPair() < 2) {
            return Map.of();
        }
        for (String metric : metrics) {
            if (HostProbeCheck.isHostScaled(metric)) {
                continue;
            }
            Optional<WindowDrift> drift = WindowDrift.of(samples.windows(metric), options);
            drift.ifPresent(d -> drifts.put(metric, d));
        }
        List<String> keys = new ArrayList<>(drifts.keySet());
        double[] adjusted = Holm.adjust(keys.stream().mapToDouble(k -> drifts.get(k).difference().pValue()).toArray());
        Map<String, Judged> judged = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            judged.put(keys.get(i), new Judged(drifts.get(keys.get(i)), adjusted[i]));
        }
        return judged;
    }

    /** The caveat a metric carries when its variants drifted differently; null when they did not. */
    public static String note(Judged judged, double alpha) {
        if (judged == null || !judged.differs(alpha)) {
            return null;
        }
        return "the variants' JVMs were still warming up differently: " + judged.describe() + "; the change measured "
                + "depends on where in their warmup the windows fell, so part of it may be how fast each variant's "
                + "code warms up rather than its steady cost. A longer warmup (warmupSeconds auto:40) measures nearer "
                + "the steady state";
    }
}
