package io.perflab.runner.rpcbench;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How a warmup ended.
 *
 * @param settled whether an auto warmup settled (true for a fixed one)
 * @param evidence the last one-second steps' figures: calls per second and CPU time per call with their spread,
 *     and the compiler's work in each step with its mean
 * @param serverWork the calibration of any injected server work ({@link ServerWork#describe()})
 */
record WarmupOutcome(boolean settled, String evidence, Map<String, String> serverWork) {

    static WarmupOutcome of(boolean settled, RecentSteps throughput, RecentSteps cpuPerCall, RecentSteps compiler,
                            Map<String, String> serverWork) {
        return new WarmupOutcome(settled, "calls/s " + throughput.describe("%.0f") + "; CPU µs/call "
                + cpuPerCall.describe("%.2f") + "; JIT ms " + compiler.values("%.0f")
                + String.format(Locale.ROOT, " (mean %.1f)", compiler.mean()), serverWork);
    }

    /** The entries of what the trial set up before its windows, for its environment. */
    Map<String, String> setup() {
        Map<String, String> setup = new LinkedHashMap<>();
        setup.put("warmup_evidence", evidence);
        setup.putAll(serverWork);
        return setup;
    }
}
