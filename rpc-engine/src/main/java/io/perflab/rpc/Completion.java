package io.perflab.rpc;

/**
 * How a synchronous caller waits for its call ({@code completion} option). One instance per call
 * object: {@link #signal()} once per use by the thread completing the call, {@link #reset()} before
 * reuse by the owner.
 */
abstract class Completion {

    static Completion create(EngineOptions.Completion kind) {
        return switch (kind) {
            case NOTIFICATION -> new NotificationCompletion();
            case MONITOR -> new MonitorCompletion();
            case CONDVAR -> new CondvarCompletion();
            case FUTURE -> new FutureCompletion();
        };
    }

    abstract void reset();

    /** Marks the call complete and wakes the waiter; must not touch the call afterwards. */
    abstract void signal();

    /**
     * Waits until signalled.
     *
     * @return {@code true} once signalled; {@code false} if the thread was interrupted first (the
     *         interrupt status is then cleared)
     */
    abstract boolean awaitInterruptibly();

    /** Waits until signalled, ignoring interrupts; the caller restores the interrupt status. */
    abstract void awaitUninterruptibly();
}
