package io.perflab.runner.experiment;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The processes an experiment has running — one trial, or the two JVMs of a pair — and its cancellation: cancelling
 * kills every one of them with its process tree and lets no other start.
 */
final class TrialProcesses {

    private final CountDownLatch cancelled = new CountDownLatch(1);
    private final Set<Process> running = ConcurrentHashMap.newKeySet();

    /** Tracks {@code process} until {@link #forget}; kills it at once if the experiment is already cancelled. */
    void track(Process process) {
        running.add(process);
        if (isCancelled()) {
            ProcessTree.kill(process.toHandle());
        }
    }

    void forget(Process process) {
        running.remove(process);
    }

    /** Kills every tracked process tree and starts no other. Idempotent, from any thread. */
    void cancel() {
        cancelled.countDown();
        running.forEach(process -> ProcessTree.kill(process.toHandle()));
    }

    boolean isCancelled() {
        return cancelled.getCount() == 0;
    }

    /** Waits {@code nanos} unless cancelled first; returns whether the experiment is cancelled. */
    boolean awaitCancel(long nanos) {
        try {
            return cancelled.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            return true;
        }
    }

    /** Waits for {@code process} to end, killing its tree on timeout or cancellation. */
    Ending await(Process process, Duration timeout) {
        track(process);
        try {
            boolean exited = process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (!exited) {
                ProcessTree.kill(process.toHandle());
                process.waitFor();
                return isCancelled() ? Ending.CANCELLED : Ending.TIMED_OUT;
            }
            return isCancelled() ? Ending.CANCELLED : Ending.EXITED;
        } catch (InterruptedException e) {
            ProcessTree.kill(process.toHandle());
            cancelled.countDown();
            Thread.currentThread().interrupt();
            return Ending.CANCELLED;
        } finally {
            forget(process);
        }
    }

    /** How a process ended, as a trial's status. */
    enum Ending {
        EXITED(io.perflab.runner.trial.TrialStatus.OK),
        TIMED_OUT(io.perflab.runner.trial.TrialStatus.TIMED_OUT),
        CANCELLED(io.perflab.runner.trial.TrialStatus.CANCELLED);

        final io.perflab.runner.trial.TrialStatus status;

        Ending(io.perflab.runner.trial.TrialStatus status) {
            this.status = status;
        }

        String describe(Duration timeout) {
            return switch (this) {
                case TIMED_OUT -> "killed after the trial timeout of " + timeout.toMillis() / 1000.0
                        + " s (--trial-timeout)";
                case CANCELLED -> "killed: the experiment was cancelled";
                case EXITED -> "exited";
            };
        }
    }
}
