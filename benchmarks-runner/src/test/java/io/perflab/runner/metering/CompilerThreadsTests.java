package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompilerThreadsTests {

    @Test
    void sumsTheCompilerThreadsOnlyAndSplitsTheirCpuInTheRatioOfTheirTicks(@TempDir Path tasks) throws IOException {
        // 4.75 ms on CPU, 80 user ticks of 100: 3.8 ms user time
        thread(tasks, "101", "C2 CompilerThre", 3_750_000, 80, 20, 7, 1);
        thread(tasks, "102", "C1 CompilerThre", 1_000_000, 0, 0, 2, 0);
        thread(tasks, "103", "pool-1-thread-1", 900_000_000, 90, 0, 500, 40);
        thread(tasks, "104", "weird) name (x", 900_000_000, 90, 0, 500, 40);

        Optional<CompilerThreads.Reading> reading = new CompilerThreads.Reader(tasks).read();

        // 10 minor + 2 major page faults per thread
        assertThat(reading.map(CompilerThreads.Reading::total))
                .contains(new CompilerThreads.Reading(4_750_000, 80, 20, 9, 1, 24));
        assertThat(reading.get().since(CompilerThreads.Reading.ZERO))
                .isEqualTo(new ResourceUsage(3800, 950, 9, 1, 24));
    }

    @Test
    void aThreadThatEndedWhileBeingReadIsSkipped(@TempDir Path tasks) throws IOException {
        thread(tasks, "101", "C2 CompilerThre", 2_000_000, 1, 0, 1, 0);
        Files.createDirectories(tasks.resolve("102"));
        Files.writeString(tasks.resolve("102/comm"), "C1 CompilerThre\n");

        assertThat(new CompilerThreads.Reader(tasks).read().map(CompilerThreads.Reading::total))
                .contains(new CompilerThreads.Reading(2_000_000, 1, 0, 1, 0, 12));
    }

    /**
     * A meter reads the compiler threads at every step: each thread's name is read the first time its id is listed
     * only, the compiler threads' counters every time, and an id that is gone is forgotten.
     */
    @Test
    void aReaderNamesEachThreadOnceAndReadsTheCompilersCountersEveryTime(@TempDir Path tasks) throws IOException {
        thread(tasks, "101", "C2 CompilerThre", 2_000_000, 1, 0, 1, 0);
        thread(tasks, "103", "pool-1-thread-1", 900_000_000, 90, 0, 500, 40);
        CompilerThreads.Reader reader = new CompilerThreads.Reader(tasks);
        assertThat(reader.read().map(CompilerThreads.Reading::total))
                .contains(new CompilerThreads.Reading(2_000_000, 1, 0, 1, 0, 12));

        thread(tasks, "101", "C2 CompilerThre", 5_000_000, 3, 0, 4, 0);
        Files.writeString(tasks.resolve("103").resolve("comm"), "C1 CompilerThre\n"); // not read again
        assertThat(reader.read().map(CompilerThreads.Reading::total))
                .contains(new CompilerThreads.Reading(5_000_000, 3, 0, 4, 0, 12));
        assertThat(new CompilerThreads.Reader(tasks).read().map(CompilerThreads.Reading::total))
                .as("a new reader names every thread")
                .contains(new CompilerThreads.Reading(905_000_000, 93, 0, 504, 40, 24));

        try (var files = Files.list(tasks.resolve("103"))) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(tasks.resolve("103"));
        assertThat(reader.read().map(CompilerThreads.Reading::total)).as("103 ended")
                .contains(new CompilerThreads.Reading(5_000_000, 3, 0, 4, 0, 12));
        thread(tasks, "103", "C1 CompilerThre", 1_000_000, 1, 0, 1, 0);
        assertThat(reader.read().map(CompilerThreads.Reading::total)).as("a reused id is named afresh")
                .contains(new CompilerThreads.Reading(6_000_000, 4, 0, 5, 0, 24));
    }

    @Test
    void listsTheIdsOfTheCompilerThreadsAndOfTheOthers(@TempDir Path tasks) throws IOException {
        thread(tasks, "101", "C2 CompilerThre", 1, 0, 0, 0, 0);
        thread(tasks, "103", "pool-1-thread-1", 1, 0, 0, 0, 0);
        thread(tasks, "105", "JVMCI-native C", 1, 0, 0, 0, 0);

        assertThat(CompilerThreads.threadIds(tasks, true)).hasValueSatisfying(ids ->
                assertThat(ids).containsExactlyInAnyOrder(101, 105));
        assertThat(CompilerThreads.threadIds(tasks, false)).contains(List.of(103));
        assertThat(CompilerThreads.threadIds(tasks.resolve("absent"), true)).isEmpty();
    }

    @Test
    void usageSinceAnEarlierReadingSplitsByTheTicksInBetween() {
        CompilerThreads.Reading earlier = new CompilerThreads.Reading(1_000_000, 50, 50, 1, 1);
        CompilerThreads.Reading later = new CompilerThreads.Reading(5_000_000, 53, 51, 4, 1);

        assertThat(later.since(earlier)).isEqualTo(new ResourceUsage(3000, 1000, 3, 0));
        assertThat(new CompilerThreads.Reading(3_000_000, 50, 50, 1, 1).since(earlier))
                .as("no tick in between: user time").isEqualTo(new ResourceUsage(2000, 0, 0, 0));
    }

    @Test
    void noProcTreeMeansUnknown(@TempDir Path dir) {
        assertThat(new CompilerThreads.Reader(dir.resolve("absent")).read()).isEmpty();
    }

    @Test
    void findsThisJvmsCompilerThreadsOnLinux() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        long sum = 0;
        for (int i = 0; i < 2_000_000; i++) {
            sum += Integer.toString(i).hashCode();
        }
        assertThat(sum).isNotZero();

        Optional<CompilerThreads.Reading> reading = new CompilerThreads.Reader().read();

        assertThat(reading).isPresent();
        long compilerMicros = reading.get().since(CompilerThreads.Reading.ZERO).cpuMicros();
        assertThat(compilerMicros).as("the JIT compiled something in this JVM").isPositive();
        assertThat(compilerMicros).isLessThan(ResourceUsage.self().cpuMicros());
    }

    /**
     * Without {@code -XX:-UseDynamicNumberOfCompilerThreads} the JVM ends idle compiler threads. One that ends
     * during a window takes its counts out of the sums: the sums' difference lost the other thread's CPU time and
     * gave the compiler threads -9,000 context switches, which the window then charged to the rest of the process.
     */
    @Test
    void aCompilerThreadThatEndsDuringAWindowCostsOnlyItsOwnShare(@TempDir Path tasks) throws IOException {
        thread(tasks, "101", "C2 CompilerThre", 2_000_000_000L, 200, 0, 10_000, 0);
        thread(tasks, "102", "C2 CompilerThre", 1_000_000_000L, 100, 0, 1_000, 0);
        CompilerThreads.Reader reader = new CompilerThreads.Reader(tasks);
        CompilerThreads.Reading start = reader.read().orElseThrow();

        delete(tasks.resolve("101"));
        thread(tasks, "102", "C2 CompilerThre", 1_300_000_000L, 130, 0, 2_000, 0);
        thread(tasks, "103", "C2 CompilerThre", 50_000_000L, 5, 0, 40, 0); // started in between
        CompilerThreads.Reading end = reader.read().orElseThrow();

        assertThat(end.since(start)).isEqualTo(new ResourceUsage(350_000, 0, 1_040, 0, 12));
    }

    /** A thread id reused by a new compiler thread counts from zero, not from the ended thread's counters. */
    @Test
    void aReusedThreadIdCountsFromZero() {
        CompilerThreads.Reading start = CompilerThreads.Reading.ofThreads(Map.of(101,
                new CompilerThreads.Reading(2_000_000_000L, 200, 0, 10_000, 0, 0)));
        CompilerThreads.Reading end = CompilerThreads.Reading.ofThreads(Map.of(101,
                new CompilerThreads.Reading(30_000_000L, 3, 0, 20, 0, 0)));

        assertThat(end.since(start)).isEqualTo(new ResourceUsage(30_000, 0, 20, 0, 0));
    }

    /**
     * A thread id reused by a compiler thread that has run longer than the ended thread but switched less: every
     * counter of a thread only grows, so one that fell is a new thread's. Its CPU alone used to tell, and the
     * difference of its context switches, -9,980, took the other thread's 1,000 away.
     */
    @Test
    void aReusedThreadIdWithMoreCpuButFewerSwitchesCountsFromZero() {
        CompilerThreads.Reading start = CompilerThreads.Reading.ofThreads(Map.of(
                101, new CompilerThreads.Reading(1_000_000L, 1, 0, 10_000, 0, 0),
                102, new CompilerThreads.Reading(1_000_000_000L, 100, 0, 1_000, 0, 0)));
        CompilerThreads.Reading end = CompilerThreads.Reading.ofThreads(Map.of(
                101, new CompilerThreads.Reading(5_000_000L, 1, 0, 20, 0, 0),
                102, new CompilerThreads.Reading(1_300_000_000L, 130, 0, 2_000, 0, 0)));

        assertThat(end.since(start)).isEqualTo(new ResourceUsage(305_000, 0, 1_020, 0, 0));
    }

    /**
     * The kernel keeps 15 bytes of a thread's name, and the JVM hands it the UTF-8 of the Java name:
     * {@code "rpc-client-lööp-1"} is kept as 15 bytes that end inside the second 'ö'. Read as UTF-8, such a name
     * failed as if the thread had ended, and its thread was left out of the system-call counter.
     */
    @Test
    void aNameCutInsideAUtf8CharacterStillNamesALiveThread(@TempDir Path tasks) throws IOException {
        byte[] cut = Arrays.copyOf("rpc-client-lööp-1".getBytes(StandardCharsets.UTF_8), 15);
        thread(tasks, "103", "placeholder", 1, 0, 0, 0, 0);
        Files.write(tasks.resolve("103/comm"), concat(cut, new byte[] {'\n'}));
        byte[] stat = concat(concat("103 (".getBytes(StandardCharsets.US_ASCII), cut),
                ") S 1 1 1 0 -1 4194368 10 0 2 0 7 3 0 0 20 0 30 0 100 0 0\n".getBytes(StandardCharsets.US_ASCII));
        Files.write(tasks.resolve("103/stat"), stat);

        assertThat(CompilerThreads.threadIds(tasks, false)).contains(List.of(103));
    }

    @Test
    void aFailedReadingTakesNothingOutOfAWindow() {
        CompilerThreads.Reading reading = new CompilerThreads.Reading(5_000_000, 5, 0, 7, 0);

        assertThat(reading.since(CompilerThreads.Reading.UNKNOWN)).isEqualTo(ResourceUsage.ZERO);
        assertThat(CompilerThreads.Reading.UNKNOWN.since(reading)).isEqualTo(ResourceUsage.ZERO);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static void delete(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }

    private static void thread(Path tasks, String tid, String name, long cpuNanos, long userTicks, long systemTicks,
                               long voluntary, long involuntary) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(tid));
        Files.writeString(dir.resolve("comm"), name + "\n");
        Files.writeString(dir.resolve("schedstat"), cpuNanos + " 12345 67\n");
        Files.writeString(dir.resolve("stat"), tid + " (" + name + ") S 1 1 1 0 -1 4194368 10 0 2 0 "
                + userTicks + " " + systemTicks + " 0 0 20 0 30 0 100 0 0\n");
        Files.writeString(dir.resolve("status"), "Name:\t" + name + "\nvoluntary_ctxt_switches:\t" + voluntary
                + "\nnonvoluntary_ctxt_switches:\t" + involuntary + "\n");
    }
}
