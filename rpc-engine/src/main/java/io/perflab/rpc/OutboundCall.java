package io.perflab.rpc;

import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A call in flight on the client: its encoded request, how to decode the answer, the deadline, and
 * (once complete) the outcome. Prepared on the calling thread, registered and written by the event
 * loop ({@link #run()}), completed exactly once by the event loop (response, timeout, cancellation,
 * connection loss) or by the calling thread when it could not be handed over.
 */
final class OutboundCall implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(OutboundCall.class);

    final ClientConnectionHandler connection;
    final Completion completion;

    int callId;
    RpcMethodRef method;
    ByteBuf request;
    ResponseReader<?> reader;
    RpcCallback<Object> callback;
    int timeoutMillis;
    long deadlineNanos;

    RpcStatus status;
    Object result;
    String detail;

    OutboundCall(ClientConnectionHandler connection, Completion completion) {
        this.connection = connection;
        this.completion = completion;
    }

    @SuppressWarnings("unchecked")
    void prepare(int callId, RpcMethodRef method, RequestWriter writer, ResponseReader<?> reader, int timeoutMillis,
                 RpcCallback<?> callback, int initialBytes, int maxFrameBytes) {
        this.callId = callId;
        this.method = method;
        this.reader = reader;
        this.callback = (RpcCallback<Object>) callback;
        this.timeoutMillis = timeoutMillis;
        ByteBuf frame = connection.alloc().ioBuffer(initialBytes);
        try {
            WireFormat.beginRequest(frame, callId, timeoutMillis, method.encoded());
            writer.write(frame);
            if (frame.writerIndex() - WireFormat.LENGTH_FIELD_BYTES > maxFrameBytes) {
                throw new RpcException(RpcStatus.INVALID_REQUEST, "request for " + method + " is "
                        + (frame.writerIndex() - WireFormat.LENGTH_FIELD_BYTES) + " bytes, over maxFrameBytes "
                        + maxFrameBytes);
            }
            WireFormat.finishFrame(frame);
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
        this.request = frame;
        this.deadlineNanos = System.nanoTime() + timeoutMillis * 1_000_000L;
    }

    /** On the event loop: register and write (the {@code flush=immediate} hand-over). */
    @Override
    public void run() {
        connection.registerAndWrite(this, true);
    }

    /** Records the outcome and wakes the caller or runs the callback. Exactly once per use. */
    void complete(RpcStatus status, Object result, String detail) {
        ByteBuf unsent = request;
        if (unsent != null) {
            request = null;
            unsent.release();
        }
        this.status = status;
        this.result = result;
        this.detail = detail;
        RpcCallback<Object> cb = callback;
        if (cb == null) {
            completion.signal();
            return;
        }
        RpcMethodRef calledMethod = method;
        connection.release(this);
        try {
            if (status == RpcStatus.OK) {
                cb.onSuccess(result);
            } else {
                cb.onFailure(new RpcException(status, detail));
            }
        } catch (RuntimeException | Error e) {
            // A failing callback must not take the connection and its other calls down with it.
            log.warn("callback of {} threw", calledMethod, e);
        }
    }

    void clear() {
        method = null;
        reader = null;
        callback = null;
        result = null;
        detail = null;
        status = null;
        completion.reset();
    }
}
