package io.perflab.rpc;

import java.util.concurrent.atomic.LongAdder;

/** Counters of one {@link RpcServer}; read at any time from any thread. */
public final class ServerMetrics {

    final LongAdder queueOverflows = new LongAdder();
    final LongAdder timedOutInQueue = new LongAdder();
    final LongAdder callsHandled = new LongAdder();
    final LongAdder protocolErrors = new LongAdder();
    final LongAdder connectionsAccepted = new LongAdder();

    /** Connections accepted since start. */
    public long connectionsAccepted() {
        return connectionsAccepted.sum();
    }

    /** Calls answered {@link RpcStatus#SERVER_TOO_BUSY} because the service queue was full. */
    public long queueOverflows() {
        return queueOverflows.sum();
    }

    /** Calls answered {@link RpcStatus#TIMED_OUT} without running: their deadline passed while queued. */
    public long timedOutInQueue() {
        return timedOutInQueue.sum();
    }

    /** Calls whose method ran (whatever its outcome). */
    public long callsHandled() {
        return callsHandled.sum();
    }

    /** Connections closed for malformed or oversized frames or a wrong preamble. */
    public long protocolErrors() {
        return protocolErrors.sum();
    }
}
