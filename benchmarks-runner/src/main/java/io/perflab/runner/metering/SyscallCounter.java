package io.perflab.runner.metering;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Counts the system calls of this process's threads, the JIT compiler threads left out: one counting event of the
 * {@code raw_syscalls:sys_enter} tracepoint per thread, inherited by the threads it starts later.
 *
 * <p>Counting, unlike sampling, arms no timer when a thread is switched in, and costs a few tens of nanoseconds
 * per system call: with the tracepoint enabled, every thread of the host takes the slower system-call entry path
 * that calls it. The tracepoint's id is read from tracefs ({@code /sys/kernel/tracing}, or
 * {@code /sys/kernel/debug/tracing} on older systems), which must be mounted and readable.
 */
public final class SyscallCounter implements AutoCloseable {

    static final List<Path> TRACEFS = List.of(Path.of("/sys/kernel/tracing"), Path.of("/sys/kernel/debug/tracing"));
    static final String SYS_ENTER_ID = "events/raw_syscalls/sys_enter/id";

    private final ThreadCounters counters;

    private SyscallCounter(ThreadCounters counters) {
        this.counters = counters;
    }

    /**
     * Opens a counter on each thread of this process but the JIT compiler threads.
     *
     * @throws PerfEvents.PerfEventException when tracefs or the kernel refuses, saying why
     */
    public static SyscallCounter forThisProcess() {
        return new SyscallCounter(ThreadCounters.open(PerfEventAttr.tracepointCounter(tracepointId(TRACEFS))));
    }

    /** Why system calls cannot be counted here, or empty where they can. */
    public static Optional<String> unavailableReason() {
        try {
            forThisProcess().close();
            return Optional.empty();
        } catch (PerfEvents.PerfEventException | UnsupportedOperationException | LinkageError e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The id of {@code raw_syscalls:sys_enter} from the first tracefs of {@code roots} that has it. */
    static long tracepointId(List<Path> roots) {
        for (Path root : roots) {
            Path file = root.resolve(SYS_ENTER_ID);
            try {
                return Long.parseLong(Files.readString(file).strip());
            } catch (IOException | NumberFormatException unreadable) {
                // try the next place
            }
        }
        throw new PerfEvents.PerfEventException(0, "the id of raw_syscalls:sys_enter is not readable in "
                + roots.get(0) + " nor " + roots.get(roots.size() - 1) + " (tracefs not mounted or not readable: "
                + "mount -t tracefs nodev /sys/kernel/tracing as root)");
    }

    /** The system calls counted so far, all threads together. */
    public long read() {
        return (long) counters.read();
    }

    /** The threads followed. */
    public int threads() {
        return counters.threads();
    }

    @Override
    public void close() {
        counters.close();
    }
}
