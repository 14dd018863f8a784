package io.perflab.runner.metering;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The threads of a process but its JIT compiler threads ({@link CompilerThreads#isCompilerThread}), as its task
 * directory ({@code /proc/<pid>/task}) names them: the samples a window counts as its workload's.
 *
 * <p>The JVM starts compiler threads as it needs them, unless run with
 * {@code -XX:-UseDynamicNumberOfCompilerThreads}: a list made when sampling starts misses those started later. So
 * each thread is named the first time one of its samples is read, and then known by its id; the compiler threads
 * listed when the filter is made are known from the start, so that one that ends before its samples are read is.
 *
 * <p>A thread that both starts and ends between two drains (up to a second apart) cannot be named any more. Where
 * compiler threads come and go, it may have been one: its samples are neither the workload's nor left out as a
 * compiler thread's, but {@link #unknown}, counted apart so that the window shows their share. Taken for the
 * workload's, a compiler thread's samples, nearly all in user mode, pulled the split towards user time unseen. Where
 * they cannot come and go ({@code -XX:-UseDynamicNumberOfCompilerThreads}, as trial JVMs run), every compiler thread
 * is started with the JVM and listed when the filter is made, so a thread that cannot be named is the workload's: a
 * workload whose own threads come and go keeps their samples. The engine's and the stacks' pools are of fixed
 * threads that live as long as their stack, so in either case few samples are left unnamed. A thread id reused by a
 * thread of another kind keeps the first thread's kind. Naming a thread once is safe for the reason
 * {@link CompilerThreads.Reader} gives.
 *
 * <p>A thread already named costs a binary search, which allocates nothing in the process it measures. Not
 * thread-safe: its owner drains samples through it from one thread at a time, as through {@link SampleTally}.
 */
final class WorkloadFilter implements SampleFilter {

    /** HotSpot's option that lets the JVM start and end compiler threads as it needs them (on by default). */
    static final String DYNAMIC_COMPILER_THREADS = "UseDynamicNumberOfCompilerThreads";

    /** What is known of a thread's samples. */
    private enum Kind {
        WORKLOAD, COMPILER, UNNAMED
    }

    private final long pid;
    private final Path tasks;
    /** Whether a compiler thread may start and end unseen, so that a thread that cannot be named may be one. */
    private final boolean compilerThreadsComeAndGo;
    /** The ids of the threads named so far, ascending. */
    private int[] ids = new int[0];
    /** What each thread of {@link #ids} is. */
    private Kind[] kinds = new Kind[0];

    /**
     * The workload of process {@code pid}, whose threads are the directories of {@code tasks}.
     *
     * @param compilerThreadsComeAndGo whether the process starts and ends compiler threads as it needs them
     *     ({@link #compilerThreadsComeAndGo()} for this JVM)
     */
    WorkloadFilter(long pid, Path tasks, boolean compilerThreadsComeAndGo) {
        this.pid = pid;
        this.tasks = tasks;
        this.compilerThreadsComeAndGo = compilerThreadsComeAndGo;
        for (int id : CompilerThreads.threadIds(tasks, true).orElse(List.of())) {
            remember(id, Kind.COMPILER);
        }
    }

    /**
     * Whether this JVM starts and ends compiler threads as it needs them ({@value #DYNAMIC_COMPILER_THREADS});
     * true where the option cannot be read, as nothing then says they stay.
     */
    static boolean compilerThreadsComeAndGo() {
        try {
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotSpot == null || !"false".equals(hotSpot.getVMOption(DYNAMIC_COMPILER_THREADS).getValue());
        } catch (RuntimeException | LinkageError unreadable) {
            return true;
        }
    }

    @Override
    public boolean counts(int samplePid, int tid) {
        return samplePid == pid && kind(tid) == Kind.WORKLOAD;
    }

    /** A thread of the process that ended before it could be named, where it may have been a compiler thread. */
    @Override
    public boolean unknown(int samplePid, int tid) {
        return samplePid == pid && kind(tid) == Kind.UNNAMED;
    }

    /** What thread {@code tid} is, named the first time it is asked about and not named again. */
    private Kind kind(int tid) {
        int at = Arrays.binarySearch(ids, tid);
        if (at >= 0) {
            return kinds[at];
        }
        Optional<String> name = CompilerThreads.name(tasks.resolve(Integer.toString(tid)));
        Kind kind;
        if (name.isPresent()) {
            kind = CompilerThreads.isCompilerThread(name.get()) ? Kind.COMPILER : Kind.WORKLOAD;
        } else {
            kind = compilerThreadsComeAndGo ? Kind.UNNAMED : Kind.WORKLOAD;
        }
        remember(tid, kind);
        return kind;
    }

    private void remember(int tid, Kind kind) {
        int at = Arrays.binarySearch(ids, tid);
        if (at >= 0) {
            kinds[at] = kind;
            return;
        }
        int insert = -at - 1;
        int[] moreIds = new int[ids.length + 1];
        Kind[] moreKinds = new Kind[ids.length + 1];
        System.arraycopy(ids, 0, moreIds, 0, insert);
        System.arraycopy(kinds, 0, moreKinds, 0, insert);
        moreIds[insert] = tid;
        moreKinds[insert] = kind;
        System.arraycopy(ids, insert, moreIds, insert + 1, ids.length - insert);
        System.arraycopy(kinds, insert, moreKinds, insert + 1, ids.length - insert);
        ids = moreIds;
        kinds = moreKinds;
    }
}
