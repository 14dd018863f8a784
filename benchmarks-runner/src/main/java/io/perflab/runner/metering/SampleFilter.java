package io.perflab.runner.metering;

import java.util.Set;

/** Which threads' samples count, by process id ({@code tgid}) and thread id. */
@FunctionalInterface
public interface SampleFilter {

    boolean counts(int pid, int tid);

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
