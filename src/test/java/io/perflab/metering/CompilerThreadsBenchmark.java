package io.perflab.metering;

import io.perflab.runner.metering.CompilerThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one reading of the JIT compiler threads' counters, which a trial's meter takes twice per warmup step and
 * at both ends of every window, in a JVM with some sixty threads, as a trial JVM has: naming every thread at each
 * reading (a new {@link CompilerThreads.Reader} each time, what the meter did before 571e25a) against a
 * {@link CompilerThreads.Reader} that names each thread once. Linux only. Not part of the test run:
 * {@code ./mvnw -B -q -pl src -am -Pjmh test -DskipTests -Djmh.include=CompilerThreadsBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgs = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CompilerThreadsBenchmark {

    /** Fifty-six parked threads beside the JVM's own, and a reader that has named them all. */
    @State(Scope.Benchmark)
    public static class Threads {
        private final List<Thread> parked = new ArrayList<>();
        CompilerThreads.Reader reader;

        @Setup(Level.Trial)
        public void start() {
            for (int i = 0; i < 56; i++) {
                Thread t = new Thread(() -> {
                    try {
                        Thread.sleep(TimeUnit.HOURS.toMillis(1));
                    } catch (InterruptedException stopped) {
                        Thread.currentThread().interrupt();
                    }
                }, "parked-" + i);
                t.setDaemon(true);
                t.start();
                parked.add(t);
            }
            reader = new CompilerThreads.Reader();
            reader.read();
        }

        @TearDown(Level.Trial)
        public void stop() {
            parked.forEach(Thread::interrupt);
        }
    }

    @Benchmark
    public Optional<CompilerThreads.Reading> everyThreadNamed(Threads threads) {
        return new CompilerThreads.Reader().read();
    }

    @Benchmark
    public Optional<CompilerThreads.Reading> namesKept(Threads threads) {
        return threads.reader.read();
    }
}
