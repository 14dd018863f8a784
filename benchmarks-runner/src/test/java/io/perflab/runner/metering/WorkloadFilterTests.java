package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
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
        WorkloadFilter filter = new WorkloadFilter(PID, tasks);

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
        WorkloadFilter filter = new WorkloadFilter(PID, tasks);

        delete(tasks.resolve("101"));

        assertThat(filter.counts(PID, 101)).isFalse();
        assertThat(filter.counts(PID, 105)).as("ended before it was named: taken for the workload's").isTrue();
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
