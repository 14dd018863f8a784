package io.perflab.runner.rpcbench;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How a warmup ended.
 *
 * @param settled whether an auto warmup settled; always false for a fixed one, which runs its time and judges nothing
 * @param evidence the last one-second steps' figures: calls per second and CPU time per call with their spread,
 *     and the JIT's work in the last step; never a bare NaN: a step without a completed call and a warmup without
 *     a whole step say so
 * @param serverWork the calibration of any injected server work ({@link ServerWork#describe()})
 * @param stepsStartNanos the bench's monotonic clock when the first step began
 * @param setupNanos how long the warmup took before its first step, the load running meanwhile: the meter's first
 *     reading (which loads its native library; seconds on a busy CPU) and the calibration of any injected server work
 */
record WarmupOutcome(boolean settled, String evidence, Map<String, String> serverWork, long stepsStartNanos,
                     long setupNanos) {

    /**
     * Environment key: how long the warmup took before its first step, in seconds ({@code setupNanos}); the
     * {@code warmup_seconds} that follow start where it ends.
     */
    static final String SETUP_SECONDS = "warmup_setup_seconds";

    /** What the evidence says when no step lasted a whole second, e.g. of a warmup shorter than one. */
    static final String NO_WHOLE_STEP = "none: no one-second step of the warmup completed";

    static WarmupOutcome of(boolean settled, SteadyState throughput, SteadyState cpuPerCall, long jitLastStep,
                            Map<String, String> serverWork, long stepsStartNanos, long setupNanos) {
        String evidence = throughput.isEmpty() ? NO_WHOLE_STEP
                : "calls/s " + throughput.describe("%.0f") + "; CPU µs/call " + cpuPerCall.describe("%.2f")
                + (jitLastStep < 0 ? "" : "; JIT " + jitLastStep + " ms in the last second");
        return new WarmupOutcome(settled, evidence, serverWork, stepsStartNanos, setupNanos);
    }

    /** The entries of what the trial set up before its windows, for its environment. */
    Map<String, String> setup() {
        Map<String, String> setup = new LinkedHashMap<>();
        setup.put(SETUP_SECONDS, String.format(Locale.ROOT, "%.3f", setupNanos / 1e9));
        setup.put("warmup_evidence", evidence);
        setup.putAll(serverWork);
        return setup;
    }
}
