package io.perflab.rpc;

/** {@code completion=monitor}: a {@code synchronized} latch with wait/notifyAll. */
final class MonitorCompletion extends Completion {

    private boolean done;

    @Override
    synchronized void reset() {
        done = false;
    }

    @Override
    synchronized void signal() {
        done = true;
        notifyAll();
    }

    @Override
    synchronized boolean awaitInterruptibly() {
        while (!done) {
            try {
                wait();
            } catch (InterruptedException e) {
                return signalledAfterInterrupt(done);
            }
        }
        return true;
    }

    @Override
    synchronized void awaitUninterruptibly() {
        while (!done) {
            try {
                wait();
            } catch (InterruptedException e) {
                // keep waiting; the caller restores the interrupt status
            }
        }
    }
}
