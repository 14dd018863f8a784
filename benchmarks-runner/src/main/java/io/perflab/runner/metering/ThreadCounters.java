package io.perflab.runner.metering;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One counting perf event on each thread of this process but the JIT compiler threads, inherited by the threads
 * they start later, read as one sum: what {@link SyscallCounter} and {@link HardwareCounters} count with.
 */
final class ThreadCounters implements AutoCloseable {

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final int ESRCH = 3;

    private final PerfEventAttr attr;
    private final List<Integer> fds;

    private ThreadCounters(PerfEventAttr attr, List<Integer> fds) {
        this.attr = attr;
        this.fds = fds;
    }

    /**
     * Opens {@code attr} on each thread of this process but the JIT compiler threads.
     *
     * @throws PerfEvents.PerfEventException when the kernel refuses, saying why
     */
    static ThreadCounters open(PerfEventAttr attr) {
        List<Integer> threads = CompilerThreads.threadIds(TASKS, false).orElseThrow(() ->
                new PerfEvents.PerfEventException(0, "cannot list this process's threads in " + TASKS));
        List<Integer> fds = new ArrayList<>();
        try {
            for (int tid : threads) {
                try {
                    fds.add(PerfEvents.open(attr, tid, -1));
                } catch (PerfEvents.PerfEventException e) {
                    if (e.errno() != ESRCH) {
                        throw e;
                    }
                    // the thread ended after it was listed: nothing of it to count
                }
            }
        } catch (RuntimeException e) {
            fds.forEach(PerfEvents::close);
            throw e;
        }
        return new ThreadCounters(attr, fds);
    }

    /** The events counted so far, all threads together; scaled where the kernel multiplexed the counter. */
    double read() {
        double sum = 0;
        for (int fd : fds) {
            sum += attr.readFormat() == PerfEventAttr.FORMAT_TOTAL_TIMES ? PerfEvents.readScaledCount(fd)
                    : PerfEvents.readCount(fd);
        }
        return sum;
    }

    /** The threads followed. */
    int threads() {
        return fds.size();
    }

    @Override
    public void close() {
        fds.forEach(PerfEvents::close);
        fds.clear();
    }
}
