package io.perflab.paired;

import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Display;
import io.perflab.stats.Holm;
import io.perflab.stats.PairWindows;
import io.perflab.stats.PairedAnalysis;
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
 * The one place that decides and says it, for the command line, the experiment page and a calibration run; the
 * family it adjusts across is the verdicts' own — the metrics the paired analysis compares — whichever metrics the
 * caller lists, so that one metric gets one Holm p in every place.
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
     * The drift of each of {@code metrics} that {@code samples} measured in at least two windows per pair, that is
     * not scaled to the host's speed and that the paired analysis can compare ({@link PairedAnalysis#analyze}), in
     * the order given; metrics whose drift cannot be told are left out. A metric the analysis refuses (a window of
     * 0, say) has no verdict and stays out of the Holm family, as it does of the verdicts' (a drift may still be
     * told for it, and would make the others' p-values larger unseen).
     */
    public static Map<String, Judged> judge(PairedSamples samples, List<String> metrics, ComparisonOptions options) {
        Map<String, WindowDrift> drifts = new LinkedHashMap<>();
        if (samples.windowsPerPair() < 2) {
            return Map.of();
        }
        for (String metric : metrics) {
            List<PairWindows> windows = samples.windows(metric);
            if (HostProbeCheck.isHostScaled(metric) || !comparable(windows, options)) {
                continue;
            }
            Optional<WindowDrift> drift = WindowDrift.of(windows, options);
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

    private static boolean comparable(List<PairWindows> windows, ComparisonOptions options) {
        try {
            PairedAnalysis.analyze(windows, options);
            return true;
        } catch (IllegalArgumentException notCompared) {
            return false;
        }
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
