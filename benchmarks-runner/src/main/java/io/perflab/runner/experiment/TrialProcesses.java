package io.perflab.runner.experiment;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The processes an experiment has running — one trial, or the two JVMs of a pair — and its cancellation: cancelling
 * kills every one of them with its process tree (a command trial's shell with every process carrying its
 * {@link ProcessTag}) and lets no other start.
 */
final class TrialProcesses {

    private final CountDownLatch cancelled = new CountDownLatch(1);
    /** Each tracked process, with the tag of the processes it started if it is a command trial's shell. */
    private final Map<Process, Optional<ProcessTag>> running = new ConcurrentHashMap<>();

    /** Tracks {@code process} until {@link #forget}; kills it at once if the experiment is already cancelled. */
    void track(Process process) {
        track(process, Optional.empty());
    }

    /** As {@link #track(Process)}; killing it kills every process carrying {@code tag} too. */
    void track(Process process, Optional<ProcessTag> tag) {
        running.put(process, tag);
        if (isCancelled()) {
            kill(process, tag);
        }
    }

    void forget(Process process) {
        running.remove(process);
    }

    /** Kills every tracked process tree and starts no other. Idempotent, from any thread. */
    void cancel() {
        cancelled.countDown();
        running.forEach(TrialProcesses::kill);
    }

    private static void kill(Process process, Optional<ProcessTag> tag) {
        ProcessTree.kill(process.toHandle());
        tag.ifPresent(ProcessTag::kill);
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
        return await(process, Optional.empty(), timeout);
    }

    /**
     * As {@link #await(Process, Duration)}, for a process tracked with {@code tag} ({@link #track(Process, Optional)}):
     * a timeout kills every process carrying it too.
     */
    Ending await(Process process, Optional<ProcessTag> tag, Duration timeout) {
        track(process, tag);
        try {
            boolean exited = process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (!exited) {
                kill(process, tag);
                process.waitFor();
                return isCancelled() ? Ending.CANCELLED : Ending.TIMED_OUT;
            }
            return isCancelled() ? Ending.CANCELLED : Ending.EXITED;
        } catch (InterruptedException e) {
            kill(process, tag);
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
