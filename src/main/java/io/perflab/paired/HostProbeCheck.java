package io.perflab.paired;

import io.perflab.runner.trial.MetricKeys;
import io.perflab.stats.Display;
import io.perflab.stats.PairedAnalysis;

/**
 * The check on the metrics scaled to the host's speed ({@link MetricKeys#HOST_ADJUSTED}): they assume the change
 * under test does not change the host probe ({@link MetricKeys#HOST_PROBE_NS}); a change that slows the host's
 * kernel for everyone slows the probe too, and the scaled figures would then hide that part of its cost. The one
 * place that decides whether the probe moved and says by how much, for the command line and the experiment page.
 */
public final class HostProbeCheck {

    private HostProbeCheck() {
    }

    /** Whether the probe's own paired change is significant at {@code alpha}. */
    public static boolean moved(PairedAnalysis probe, double alpha) {
        return probe.logRatio().pValue() < alpha;
    }

    /** The probe's change with its interval, e.g. {@code +1.31% [-1.45%, +4.14%]}. */
    public static String change(PairedAnalysis probe) {
        return Display.percent(probe.relativeChange().percent()).strip() + " " + Display.percentInterval(
                probe.relativeChange().ciLowPercent(), probe.relativeChange().ciHighPercent());
    }

    /** Whether {@code key} is the probe (by its loop or by its system call) or a metric scaled to it. */
    public static boolean isHostScaled(String key) {
        return key.equals(MetricKeys.HOST_PROBE_NS) || key.equals(MetricKeys.HOST_PROBE_SYSCALL_NS)
                || MetricKeys.HOST_ADJUSTED.containsValue(key);
    }
}
