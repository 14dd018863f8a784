package io.perflab.rpc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadFactory;
import io.netty.util.concurrent.DefaultThreadFactory;

/** Worker threads behind a bounded queue, as Kudu's ServicePool. */
final class ServicePool {

    private final BlockingQueue<InboundCall> queue;
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean stopped;

    ServicePool(int workerThreads, int queueLength, String name) {
        this.queue = new ArrayBlockingQueue<>(queueLength);
        // Netty threads (FastThreadLocalThread): fast access to the allocator's thread cache.
        ThreadFactory factory = new DefaultThreadFactory(name, true);
        for (int i = 0; i < workerThreads; i++) {
            workers.add(factory.newThread(this::work));
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
