package io.perflab.system;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Stops a service's background executor without interrupting a task that is under way, unless it outlasts a grace
 * period: a thread interrupted while it reads or writes an H2 database in a file closes the database (its file
 * channel is interruptible), for every other user of it too, and loses what it was storing.
 */
public final class GracefulStop {

    private GracefulStop() {
    }

    /**
     * Runs no more of {@code executor}'s tasks (a periodic one is not run again), waits up to {@code grace} for the
     * one under way to end, and only then interrupts it. Returns whether the executor ended within the grace.
     */
    public static boolean stop(ExecutorService executor, Duration grace) {
        executor.shutdown();
        try {
            if (executor.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor.shutdownNow();
        return false;
    }
}
