package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadFilterTests {

    private static final int PID = 100;

    @Test
    void leavesOutCompilerThreadsStartedAfterItWasMadeAndNamesEachThreadOnce(@TempDir Path tasks) throws IOException {
        thread(tasks, 101, "C2 CompilerThre");
        thread(tasks, 102, "main");
        WorkloadFilter filter = new WorkloadFilter(PID, tasks, true);

        thread(tasks, 103, "C1 CompilerThre"); // started later
        thread(tasks, 104, "rpc-worker-1");

        assertThat(filter.counts(PID, 101)).isFalse();
        assertThat(filter.counts(PID, 102)).isTrue();
        assertThat(filter.counts(PID, 103)).isFalse();
        assertThat(filter.counts(PID, 104)).isTrue();
        assertThat(filter.counts(PID + 1, 104)).as("another process").isFalse();

        thread(tasks, 104, "C2 CompilerThre");
        assertThat(filter.counts(PID, 104)).as("named once").isTrue();
    }

    /** Samples are read up to a second after they were taken, when their thread may have ended. */
    @Test
    void aCompilerThreadListedWhenItWasMadeStaysLeftOutAfterItEnds(@TempDir Path tasks) throws IOException {
        thread(tasks, 101, "C2 CompilerThre");
        WorkloadFilter filter = new WorkloadFilter(PID, tasks, true);

        delete(tasks.resolve("101"));

        assertThat(filter.counts(PID, 101)).isFalse();
        assertThat(filter.unknown(PID, 101)).as("known as a compiler thread").isFalse();
    }

    /**
     * A compiler thread that starts and ends between two drains cannot be named when its samples are read: they were
     * taken for the workload's, and pulled its split towards user time unseen.
     */
    @Test
    void aThreadThatEndedBeforeItWasNamedIsUnknownWhereCompilerThreadsComeAndGo(@TempDir Path tasks)
            throws IOException {
        thread(tasks, 102, "main");
        WorkloadFilter filter = new WorkloadFilter(PID, tasks, true);

        assertThat(filter.counts(PID, 105)).as("ended before it was named").isFalse();
        assertThat(filter.unknown(PID, 105)).isTrue();
        thread(tasks, 105, "rpc-worker-5");
        assertThat(filter.unknown(PID, 105)).as("named once").isTrue();
        assertThat(filter.counts(PID, 102)).isTrue();
        assertThat(filter.unknown(PID, 102)).isFalse();
        assertThat(filter.unknown(PID + 1, 106)).as("another process's").isFalse();
    }

    /**
     * With {@code -XX:-UseDynamicNumberOfCompilerThreads} every compiler thread starts with the JVM and is listed when
     * the filter is made: a workload thread that came and went between two drains keeps its samples.
     */
    @Test
    void aThreadThatEndedBeforeItWasNamedIsTheWorkloadsWhereCompilerThreadsStay(@TempDir Path tasks)
            throws IOException {
        thread(tasks, 101, "C2 CompilerThre");
        WorkloadFilter filter = new WorkloadFilter(PID, tasks, false);

        delete(tasks.resolve("101"));

        assertThat(filter.counts(PID, 101)).isFalse();
        assertThat(filter.counts(PID, 105)).isTrue();
        assertThat(filter.unknown(PID, 105)).isFalse();
    }

    /** The test JVMs run with the JVM's default, compiler threads as needed, unless a build turns it off. */
    @Test
    void readsWhetherThisJvmStartsAndEndsCompilerThreadsAsItNeedsThem() {
        String option = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption(WorkloadFilter.DYNAMIC_COMPILER_THREADS).getValue();

        assertThat(WorkloadFilter.compilerThreadsComeAndGo()).isEqualTo(Boolean.parseBoolean(option));
    }

    private static void thread(Path tasks, int tid, String name) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(Integer.toString(tid)));
        Files.writeString(dir.resolve("comm"), name + "\n");
    }

    private static void delete(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }
}
