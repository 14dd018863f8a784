package io.perflab.runner.rpcbench;

import io.perflab.runner.metering.ProcessMeter;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The warmup of a bench ({@link Warmup}): one-second steps metered as windows are, until the figures settle.
 *
 * @param workload the workload, whose warmup this is
 * @param meter the meter of the windows
 * @param nanoClock the monotonic clock that paces the steps
 * @param jitWork the JIT's work so far, ms
 */
record SteadyWarmup(Workload workload, ProcessMeter meter, LongSupplier nanoClock, LongSupplier jitWork) {

    private static final long ONE_SECOND = TimeUnit.SECONDS.toNanos(1);

    /**
     * After each of the warmup's first this many steps the load pauses and resumes at once, as a trial of the
     * {@code alternating} design does around each of its windows, so that the client loops are compiled with the
     * pause in their profile. Without it their C2 code, compiled while the load never paused, was thrown away at the
     * first pause after the warmup ({@code unstable_if} in {@code Load.callInLoop}), and every client thread ran
     * interpreted into the first window until it was compiled again there: that window measured user CPU per call
     * 5-6 % above the later ones (docs/PERFORMANCE.md, section 2).
     */
    static final int PAUSED_STEPS = 5;

    /**
     * Runs the warmup in one-second steps, each metered as a window is, so that the meter's own first use (loading
     * its native library, compiling its code) lies in the warmup and never in a window. An auto warmup ends once the
     * compiler has been quiet over the last {@link Warmup#QUIET_STEPS} steps, none of them a paused one; a fixed one
     * runs its time. Either way the outcome carries the last steps' figures as evidence. The load pauses briefly
     * after each of the first {@link #PAUSED_STEPS} steps.
     */
    WarmupOutcome run(Load load) {
        Warmup warmup = workload.warmup();
        Map<String, String> serverWork = ServerWork.of(workload.serverWorkNanos()).describe();
        RecentSteps throughput = new RecentSteps();
        RecentSteps cpuPerCall = new RecentSteps();
        RecentSteps compiler = new RecentSteps();
        ProcessMeter.Snapshot previous = meter.snapshot();
        load.swapLatencies();
        long end = previous.nanoTime() + warmup.duration().toNanos();
        long compiled = jitWork.getAsLong();
        int steps = 0;
        while (previous.nanoTime() < end) {
            RpcBench.awaitOnCpu(nanoClock, Math.min(previous.nanoTime() + ONE_SECOND, end));
            ProcessMeter.Snapshot now = meter.snapshot();
            long calls = load.swapLatencies().getTotalCount();
            ProcessMeter.Window step = now.since(previous);
            previous = now;
            if (++steps <= PAUSED_STEPS) {
                load.pause();
                load.resume();
            }
            long compiledNow = jitWork.getAsLong();
            compiler.add(compiledNow - compiled);
            compiled = compiledNow;
            if (step.elapsedNanos() < ONE_SECOND) {
                break;
            }
            throughput.add(calls / (step.elapsedNanos() / 1e9));
            cpuPerCall.add(calls == 0 ? Double.NaN : step.usage().cpuMicros() / (double) calls);
            if (warmup.auto() && steps >= PAUSED_STEPS + Warmup.QUIET_STEPS && quiet(compiler)) {
                return WarmupOutcome.of(true, throughput, cpuPerCall, compiler, serverWork);
            }
        }
        return WarmupOutcome.of(!warmup.auto(), throughput, cpuPerCall, compiler, serverWork);
    }

    /** Whether the compiler's work over the kept steps is within {@link Warmup}'s stated limits. */
    static boolean quiet(RecentSteps compiler) {
        return compiler.full() && compiler.mean() <= Warmup.QUIET_JIT_MILLIS_PER_SECOND
                && compiler.max() <= Warmup.QUIET_JIT_MILLIS_IN_A_STEP;
    }
}
