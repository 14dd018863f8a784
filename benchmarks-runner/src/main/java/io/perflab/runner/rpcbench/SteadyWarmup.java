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
     * An auto warmup also waits for the JIT to be done: on a busy machine the compiler threads may still be
     * compiling the hot path long after throughput looks flat, and until they are done the window measures code
     * that is about to be replaced. Done means the compiler threads used at most this much CPU in the last second
     * (or, where their CPU cannot be read, the JVM compiled for at most this long).
     */
    static final long JIT_QUIET_MILLIS_PER_SECOND = 10;
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
     * its native library, compiling its code) lies in the warmup and never in a window. An auto warmup ends once
     * throughput and CPU time per call have settled ({@link SteadyState}) and the JIT is quiet; a fixed one runs
     * its time, and is never called settled: it judged nothing. Either way the outcome carries the last steps'
     * figures as evidence, and when its steps began: after the meter's first reading, which loads its native library
     * and on a busy CPU took seconds. The load pauses briefly after each of the first {@link #PAUSED_STEPS} steps.
     */
    WarmupOutcome run(Load load) {
        long start = nanoClock.getAsLong();
        Warmup warmup = workload.warmup();
        Map<String, String> serverWork = ServerWork.of(workload.serverWorkNanos()).describe();
        SteadyState throughput = new SteadyState();
        SteadyState cpuPerCall = new SteadyState();
        ProcessMeter.Snapshot previous = meter.snapshot();
        long stepsStart = nanoClock.getAsLong();
        load.swapLatencies();
        long end = previous.nanoTime() + warmup.duration().toNanos();
        long compiled = jitWork.getAsLong();
        long jitLastStep = -1;
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
            jitLastStep = compiledNow - compiled;
            compiled = compiledNow;
            if (step.elapsedNanos() < ONE_SECOND) {
                break;
            }
            boolean callsSteady = throughput.add(calls / (step.elapsedNanos() / 1e9));
            boolean cpuSteady = cpuPerCall.add(calls == 0 ? Double.NaN : step.usage().cpuMicros() / (double) calls);
            if (warmup.auto() && callsSteady && cpuSteady && jitLastStep <= JIT_QUIET_MILLIS_PER_SECOND) {
                return WarmupOutcome.of(true, throughput, cpuPerCall, jitLastStep, serverWork, stepsStart,
                        stepsStart - start);
            }
        }
        return WarmupOutcome.of(false, throughput, cpuPerCall, jitLastStep, serverWork, stepsStart,
                stepsStart - start);
    }
}
