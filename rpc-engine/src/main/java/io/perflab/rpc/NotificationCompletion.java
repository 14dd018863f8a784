package io.perflab.rpc;

import java.util.concurrent.locks.LockSupport;

/**
 * {@code completion=notification}: one atomic state word, as Kudu's futex-based Notification
 * ({@link StateWordCompletion}), its waiter parked with {@code LockSupport}. A caller whose response is already
 * there never parks and nobody calls unpark.
 */
final class NotificationCompletion extends StateWordCompletion<Thread> {

    @Override
    Thread me() {
        return Thread.currentThread();
    }

    @Override
    void sleep(Thread me) {
        LockSupport.park(this);
    }

    @Override
    void wake(Thread waiter) {
        LockSupport.unpark(waiter);
    }
}
