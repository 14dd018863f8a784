package io.perflab.runner.metering;

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
 * A compiler thread that both starts and ends between two drains (up to a second apart) cannot be named any more,
 * and its samples count as the workload's; so do those of a thread whose id is reused by a thread of another kind,
 * which takes the first thread's kind. Naming a thread once is safe for the reason {@link CompilerThreads.Reader}
 * gives.
 *
 * <p>A thread already named costs a binary search, which allocates nothing in the process it measures. Not
 * thread-safe: its owner drains samples through it from one thread at a time, as through {@link SampleTally}.
 */
final class WorkloadFilter implements SampleFilter {

    private final long pid;
    private final Path tasks;
    /** The ids of the threads named so far, ascending. */
    private int[] ids = new int[0];
    /** Whether the thread of each id in {@link #ids} is a compiler thread. */
    private boolean[] compiler = new boolean[0];

    /** The workload of process {@code pid}, whose threads are the directories of {@code tasks}. */
    WorkloadFilter(long pid, Path tasks) {
        this.pid = pid;
        this.tasks = tasks;
        for (int id : CompilerThreads.threadIds(tasks, true).orElse(List.of())) {
            remember(id, true);
        }
    }

    @Override
    public boolean counts(int samplePid, int tid) {
        if (samplePid != pid) {
            return false;
        }
        int at = Arrays.binarySearch(ids, tid);
        if (at >= 0) {
            return !compiler[at];
        }
        // a thread that ended before it could be named is taken for the workload's, and not named again
        Optional<String> name = CompilerThreads.name(tasks.resolve(Integer.toString(tid)));
        boolean isCompiler = name.isPresent() && CompilerThreads.isCompilerThread(name.get());
        remember(tid, isCompiler);
        return !isCompiler;
    }

    private void remember(int tid, boolean isCompiler) {
        int at = Arrays.binarySearch(ids, tid);
        if (at >= 0) {
            compiler[at] = isCompiler;
            return;
        }
        int insert = -at - 1;
        int[] moreIds = new int[ids.length + 1];
        boolean[] moreKinds = new boolean[ids.length + 1];
        System.arraycopy(ids, 0, moreIds, 0, insert);
        System.arraycopy(compiler, 0, moreKinds, 0, insert);
        moreIds[insert] = tid;
        moreKinds[insert] = isCompiler;
        System.arraycopy(ids, insert, moreIds, insert + 1, ids.length - insert);
        System.arraycopy(compiler, insert, moreKinds, insert + 1, ids.length - insert);
        ids = moreIds;
        compiler = moreKinds;
    }
}
