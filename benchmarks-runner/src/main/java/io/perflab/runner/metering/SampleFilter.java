package io.perflab.runner.metering;

import java.util.Set;

/** Which threads' samples count, by process id ({@code tgid}) and thread id. */
@FunctionalInterface
public interface SampleFilter {

    boolean counts(int pid, int tid);

    /**
     * Whether the thread of a sample that {@link #counts} leaves out could not be told selected or not, as a thread
     * that ended before it could be named ({@link WorkloadFilter}): its samples are counted apart, so that a window
     * shows how much it could not judge. Asked only after {@link #counts} answered false for the same thread; no
     * thread, unless the filter says otherwise.
     */
    default boolean unknown(int pid, int tid) {
        return false;
    }

    /** Every thread of process {@code pid} but those in {@code excludedThreads}. */
    static SampleFilter process(long pid, Set<Integer> excludedThreads) {
        Set<Integer> excluded = Set.copyOf(excludedThreads);
        return (p, t) -> p == pid && !excluded.contains(t);
    }

    /** One thread. */
    static SampleFilter thread(int tid) {
        return (p, t) -> t == tid;
    }
}
