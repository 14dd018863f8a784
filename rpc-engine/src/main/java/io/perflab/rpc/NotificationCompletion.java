package io.perflab.rpc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code completion=notification}: one atomic state word, as Kudu's futex-based Notification. The
 * word is {@code PENDING}, {@code DONE} or the waiting thread itself; the waiter publishes itself
 * only when it is about to park, and {@link #signal()} unparks only when it swapped a thread out.
 * A caller whose response is already there never parks and nobody calls unpark.
 */
final class NotificationCompletion extends Completion {

    private static final Object PENDING = new Object();
    private static final Object DONE = new Object();
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(NotificationCompletion.class, "state", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through STATE
    private volatile Object state = PENDING;

    @Override
    void reset() {
        state = PENDING;
    }

    @Override
    void signal() {
        Object previous = STATE.getAndSet(this, DONE);
        if (previous instanceof Thread waiter) {
            LockSupport.unpark(waiter);
        }
    }

    @Override
    boolean awaitInterruptibly() {
        if (!publishWaiter()) {
            return true;
        }
        while (state != DONE) {
            LockSupport.park(this);
            if (Thread.interrupted()) {
                return signalledAfterInterrupt(state == DONE);
            }
        }
        return true;
    }

    @Override
    void awaitUninterruptibly() {
        if (!publishWaiter()) {
            return;
        }
        while (state != DONE) {
            LockSupport.park(this);
            Thread.interrupted();
        }
    }

    /** @return {@code false} if already done; otherwise this thread is now the registered waiter */
    private boolean publishWaiter() {
        Object s = state;
        if (s == DONE) {
            return false;
        }
        Thread me = Thread.currentThread();
        return s == me || STATE.compareAndSet(this, PENDING, me);
    }
}
