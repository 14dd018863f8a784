package io.perflab.runner.rpcbench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a warmup ended.
 *
 * @param settled whether an auto warmup settled (true for a fixed one)
 * @param evidence the last one-second steps' figures: calls per second and CPU time per call with their spread,
 *     and the JIT's work in the last step
 * @param serverWork the calibration of any injected server work ({@link ServerWork#describe()})
 */
record WarmupOutcome(boolean settled, String evidence, Map<String, String> serverWork) {

    static WarmupOutcome of(boolean settled, SteadyState throughput, SteadyState cpuPerCall, long jitLastStep,
                            Map<String, String> serverWork) {
        return new WarmupOutcome(settled, "calls/s " + throughput.describe("%.0f") + "; CPU µs/call "
                + cpuPerCall.describe("%.2f") + (jitLastStep < 0 ? "" : "; JIT " + jitLastStep
                + " ms in the last second"), serverWork);
    }

    /** The entries of what the trial set up before its windows, for its environment. */
    Map<String, String> setup() {
        Map<String, String> setup = new LinkedHashMap<>();
        setup.put("warmup_evidence", evidence);
        setup.putAll(serverWork);
        return setup;
    }
}
