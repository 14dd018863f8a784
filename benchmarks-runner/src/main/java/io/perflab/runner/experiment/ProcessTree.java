package io.perflab.runner.experiment;

import java.util.List;

/** Kills a process together with everything it started. */
final class ProcessTree {

    private ProcessTree() {
    }

    /**
     * Forcibly kills {@code root} and its descendants. The descendants are listed before the root dies, since
     * an orphan is re-parented and no longer found under it; the listing is repeated once to catch a child
     * started meanwhile.
     */
    static void kill(ProcessHandle root) {
        for (int pass = 0; pass < 2; pass++) {
            List<ProcessHandle> descendants = root.descendants().toList();
            root.destroyForcibly();
            descendants.forEach(ProcessHandle::destroyForcibly);
        }
    }
}
