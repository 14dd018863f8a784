package io.perflab.rpc;

import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@code completion=condvar}: a mutex and a condition variable with POSIX semantics, as the latch Kudu's
 * sync calls waited on before seed 003's change (a count of one, a {@code pthread_mutex_t} and a
 * {@code pthread_cond_t}, broadcast while the mutex is held).
 *
 * <p>The difference from {@link MonitorCompletion} is when the waiter wakes. A Java monitor's
 * {@code notifyAll} and a {@code Condition}'s {@code signal} only move the waiter to the lock's queue; it is
 * woken once the signaller releases the lock. A POSIX broadcast wakes the waiter at once, still under the
 * mutex, so a waiter that runs before the signaller has unlocked finds the mutex held and sleeps on it
 * again, to be woken a second time by the unlock: one more wake-up and context switch for that call
 * ("hurry up and wait"). Here {@link #signal()} unparks the waiter while holding the lock, and the waiter
 * takes the lock again before it looks at the state.
 */
final class CondvarCompletion extends Completion {

    private final ReentrantLock mutex;
    /** Guarded by {@link #mutex}. */
    private boolean done;
    /** The thread waiting on the condition variable, guarded by {@link #mutex}. */
    private Thread waiter;

    CondvarCompletion() {
        this(new ReentrantLock());
    }

    /** With a given mutex: tests hold it to watch the waiter wake while the signaller has it. */
    CondvarCompletion(ReentrantLock mutex) {
        this.mutex = mutex;
    }

    @Override
    void reset() {
        mutex.lock();
        try {
            done = false;
        } finally {
            mutex.unlock();
        }
    }

    @Override
    void signal() {
        mutex.lock();
        try {
            done = true;
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w); // the broadcast, while the mutex is still held
            }
        } finally {
            mutex.unlock();
        }
    }

    @Override
    boolean awaitInterruptibly() {
        return await(true);
    }

    @Override
    void awaitUninterruptibly() {
        await(false);
    }

    /**
     * {@code pthread_cond_wait} in a loop: the waiter registers itself and releases the mutex before it
     * parks, so a broadcast between the two leaves a permit and {@code park} returns at once.
     */
    private boolean await(boolean interruptible) {
        Thread me = Thread.currentThread();
        mutex.lock();
        try {
            while (!done) {
                waiter = me;
                mutex.unlock();
                try {
                    LockSupport.park(this);
                } finally {
                    mutex.lock(); // may find the signaller still holding it and sleep again
                }
                if (Thread.interrupted() && (interruptible || done)) {
                    signalledAfterInterrupt(done);
                    break;
                }
            }
            waiter = null;
            return done;
        } finally {
            mutex.unlock();
        }
    }
}
