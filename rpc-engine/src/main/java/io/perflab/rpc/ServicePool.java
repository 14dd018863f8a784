package io.perflab.rpc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/** Worker threads behind a bounded queue, as Kudu's ServicePool. */
final class ServicePool {

    private final BlockingQueue<InboundCall> queue;
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean stopped;

    ServicePool(int workerThreads, int queueLength, String name) {
        this.queue = new ArrayBlockingQueue<>(queueLength);
        for (int i = 0; i < workerThreads; i++) {
            Thread t = new Thread(this::work, name + "-" + i);
            t.setDaemon(true);
            workers.add(t);
        }
        workers.forEach(Thread::start);
    }

    /** Queues a call; {@code false} if the queue is full. Called by reactors. */
    boolean offer(InboundCall call) {
        return !stopped && queue.offer(call);
    }

    private void work() {
        while (!stopped) {
            InboundCall call;
            try {
                call = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            call.execute();
        }
    }

    /** Stops the workers (interrupting running handlers) and drops queued calls. */
    void close() {
        stopped = true;
        workers.forEach(Thread::interrupt);
        for (Thread t : workers) {
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        InboundCall call;
        while ((call = queue.poll()) != null) {
            call.discard();
        }
    }
}
