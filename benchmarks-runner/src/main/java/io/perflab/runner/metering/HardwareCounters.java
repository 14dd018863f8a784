package io.perflab.runner.metering;

import java.util.Optional;
import java.util.function.Function;

/**
 * Counts the instructions and the CPU cycles of this process's threads, the JIT compiler threads left out, in user
 * and kernel mode, with the CPU's hardware counters: one counting event of each per thread, inherited by the
 * threads it starts later, as {@link SyscallCounter} counts system calls.
 *
 * <p>An instruction count does not move with the host's speed, which a CPU time does: on a machine shared with
 * others, a window's CPU per call varies by several percent with what its neighbours do, while the instructions a
 * call executes vary only with what the code does. Cycles move with the speed as CPU time does, but not with a
 * clock's frequency. Where the counters are multiplexed with other events, each count is scaled to the time it
 * was enabled, as {@code perf stat} scales it. Most virtual machines give no hardware counters: the kernel then
 * refuses the event, and the trial records why ({@link #refusalReason}).
 */
final class HardwareCounters implements AutoCloseable {

    /** What the counters read: instructions and cycles since they were opened. */
    record Counts(double instructions, double cycles) {

        /** What was counted since {@code start}, rounded to whole events. */
        Counts since(Counts start) {
            return new Counts(Math.round(instructions - start.instructions), Math.round(cycles - start.cycles));
        }
    }

    private final ThreadCounters instructions;
    private final ThreadCounters cycles;

    private HardwareCounters(ThreadCounters instructions, ThreadCounters cycles) {
        this.instructions = instructions;
        this.cycles = cycles;
    }

    /**
     * Opens both counters on each thread of this process but the JIT compiler threads.
     *
     * @throws PerfEvents.PerfEventException when the kernel refuses either, saying why
     */
    static HardwareCounters forThisProcess() {
        return open(ThreadCounters::open, PerfEventAttr.TYPE_HARDWARE, PerfEventAttr.HW_INSTRUCTIONS,
                PerfEventAttr.HW_CPU_CYCLES);
    }

    /**
     * Opens the counters of events {@code instructionsEvent} and {@code cyclesEvent} of {@code type} with
     * {@code opener}: {@link #forThisProcess} but in tests, which count software events where the host has no
     * hardware counters.
     */
    static HardwareCounters open(Function<PerfEventAttr, ThreadCounters> opener, int type, long instructionsEvent,
                                 long cyclesEvent) {
        ThreadCounters counted = opener.apply(PerfEventAttr.scaledCounter(type, instructionsEvent));
        try {
            return new HardwareCounters(counted, opener.apply(PerfEventAttr.scaledCounter(type, cyclesEvent)));
        } catch (RuntimeException e) {
            counted.close();
            throw e;
        }
    }

    /** Why instructions and cycles cannot be counted in this process, or empty where they can. */
    static Optional<String> unavailableReason() {
        try {
            forThisProcess().close();
            return Optional.empty();
        } catch (PerfEvents.PerfEventException | UnsupportedOperationException e) {
            return Optional.of(refusalReason(e));
        } catch (LinkageError e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Why instructions and cycles are not counted, in the user's terms, from what refused them. */
    static String refusalReason(RuntimeException refusal) {
        return refusalReason(refusal, PerfEvents.readParanoid());
    }

    /** As {@link #refusalReason(RuntimeException)}, with {@code kernel.perf_event_paranoid} given. */
    static String refusalReason(RuntimeException refusal, int paranoid) {
        if (refusal instanceof PerfEvents.PerfEventException e && (e.errno() == 2 || e.errno() == 19
                || e.errno() == 95)) {
            return "this host gives no hardware counters (" + e.getMessage() + "; most virtual machines do not pass "
                    + "the CPU's performance counters through)";
        }
        if (refusal instanceof PerfEvents.PerfEventException e && (e.errno() == 1 || e.errno() == 13)) {
            // PerfEvents' wording is a CPU-wide sampler's; a thread's counter of kernel mode asks less
            return "counting instructions in kernel mode is not permitted (" + (paranoid == Integer.MIN_VALUE
                    ? "kernel.perf_event_paranoid unreadable" : "kernel.perf_event_paranoid=" + paranoid)
                    + "; it needs it ≤ 1, or CAP_PERFMON or CAP_SYS_ADMIN; a container's seccomp profile may refuse "
                    + "perf_event_open too)";
        }
        return refusal.getMessage();
    }

    /** The events counted so far, all threads together. */
    Counts read() {
        return new Counts(instructions.read(), cycles.read());
    }

    @Override
    public void close() {
        instructions.close();
        cycles.close();
    }
}
