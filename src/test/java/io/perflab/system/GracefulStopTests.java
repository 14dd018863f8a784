package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A background executor stopped with the service lets the task under way end uninterrupted (an interrupted thread
 * that uses an H2 database in a file closes it), runs its periodic task no more, and interrupts only a task that
 * outlasts the grace.
 */
class GracefulStopTests {

    @Test
    void aTaskUnderWayEndsUninterruptedAndThePeriodicTaskRunsNoMore() throws Exception {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicInteger runs = new AtomicInteger();
        executor.scheduleWithFixedDelay(() -> {
            runs.incrementAndGet();
            running.countDown();
            long until = System.nanoTime() + 300_000_000L;
            while (System.nanoTime() < until) {
                interrupted.compareAndSet(false, Thread.currentThread().isInterrupted());
            }
        }, 0, 1, TimeUnit.MILLISECONDS);
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        boolean ended = GracefulStop.stop(executor, Duration.ofSeconds(10));

        assertThat(ended).isTrue();
        assertThat(interrupted).as("the task under way was interrupted").isFalse();
        assertThat(executor.isTerminated()).isTrue();
        assertThat(runs).as("not run again after the stop").hasValue(1);
    }

    @Test
    void aTaskThatOutlastsTheGraceIsInterrupted() throws Exception {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        executor.execute(() -> {
            running.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        boolean ended = GracefulStop.stop(executor, Duration.ofMillis(200));

        assertThat(ended).isFalse();
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("interrupted after the grace").isTrue();
    }
}
