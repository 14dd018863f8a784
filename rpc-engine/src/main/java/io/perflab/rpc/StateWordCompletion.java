package io.perflab.rpc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A completion on one atomic state word, as Kudu's {@code Notification}: the word is {@code PENDING}, {@code DONE}
 * or the waiter's handle {@code W}. The waiter publishes itself only when it is about to sleep, and
 * {@link #signal()} wakes it only when it swapped a waiter out, so a caller whose response is already there never
 * sleeps and nobody wakes it. How a waiter sleeps and is woken is the subclass's: {@link NotificationCompletion}
 * parks, {@link FutexCompletion} waits in {@code futex(2)}.
 *
 * @param <W> the handle by which a sleeping waiter is woken
 */
abstract class StateWordCompletion<W> extends Completion {

    private static final Object PENDING = new Object();
    private static final Object DONE = new Object();
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(StateWordCompletion.class, "state", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through STATE
    private volatile Object state = PENDING;

    /** The calling thread's handle. */
    abstract W me();

    /**
     * Sleeps until {@link #wake} or for no reason (callers loop); returns at once while the thread is interrupted, as
     * {@code LockSupport.park} does, so that a wait sees an interrupt that came before it.
     */
    abstract void sleep(W me);

    /** Wakes {@code waiter}, or makes its next {@link #sleep} return at once. */
    abstract void wake(W waiter);

    @Override
    final void reset() {
        state = PENDING;
    }

    @Override
    @SuppressWarnings("unchecked") // the word holds PENDING, DONE or a W that publishWaiter put there
    final void signal() {
        Object previous = STATE.getAndSet(this, DONE);
        if (previous != PENDING && previous != DONE) {
            wake((W) previous);
        }
    }

    @Override
    final boolean awaitInterruptibly() {
        W me = publishWaiter();
        while (me != null && state != DONE) {
            sleep(me);
            if (Thread.interrupted()) {
                return signalledAfterInterrupt(state == DONE);
            }
        }
        return true;
    }

    @Override
    final void awaitUninterruptibly() {
        W me = publishWaiter();
        while (me != null && state != DONE) {
            sleep(me);
            Thread.interrupted(); // a park would return at once while it is set; the caller restores it
        }
    }

    /** @return null if already done; otherwise this thread's handle, now the registered waiter */
    private W publishWaiter() {
        Object s = state;
        if (s == DONE) {
            return null;
        }
        W me = me();
        return s == me || STATE.compareAndSet(this, PENDING, me) ? me : null;
    }
}
