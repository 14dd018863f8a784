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
            case FUTEX -> new FutexCompletion();
            case FUTURE -> new FutureCompletion();
        };
    }

    abstract void reset();

    /** Marks the call complete and wakes the waiter; must not touch the call afterwards. */
    abstract void signal();

    /**
     * Waits until signalled.
     *
     * @return {@code true} once signalled, with the interrupt status still set if an interrupt came too;
     *         {@code false} if the thread was interrupted before the signal (the interrupt status is then
     *         cleared, and the caller, who cancels the call, restores it)
     */
    abstract boolean awaitInterruptibly();

    /**
     * For a wait that has taken an interrupt (and cleared the status): if the call was signalled as well, the
     * wait ends as signalled and the interrupt is set again, so that it is neither lost nor made to cancel a
     * call that is already complete.
     *
     * @return {@code signalled}
     */
    static boolean signalledAfterInterrupt(boolean signalled) {
        if (signalled) {
            Thread.currentThread().interrupt();
        }
        return signalled;
    }

    /** Waits until signalled, ignoring interrupts; the caller restores the interrupt status. */
    abstract void awaitUninterruptibly();
}
