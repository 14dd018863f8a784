package io.perflab.rpc;

import io.netty.buffer.ByteBuf;

/**
 * A request being served: created (or taken from the connection's pool) on the reactor, run by a
 * worker ({@link #execute()}), handed back to the reactor to write its response ({@link #run()}).
 */
final class InboundCall implements Runnable {

    private final ServerConnectionHandler connection;
    private int callId;
    private long receivedNanos;
    private int timeoutMillis;
    private MethodHandler handler;
    private ByteBuf request;
    private ByteBuf response;

    InboundCall(ServerConnectionHandler connection) {
        this.connection = connection;
    }

    void init(int callId, int timeoutMillis, long receivedNanos, MethodHandler handler, ByteBuf request) {
        this.callId = callId;
        this.timeoutMillis = timeoutMillis;
        this.receivedNanos = receivedNanos;
        this.handler = handler;
        this.request = request;
    }

    int callId() {
        return callId;
    }

    /** Runs the method (or answers TIMED_OUT if the deadline passed in the queue), then sends. */
    void execute() {
        ByteBuf req = request;
        request = null;
        try {
            if (timeoutMillis > 0 && connection.nanoTime() - receivedNanos > timeoutMillis * 1_000_000L) {
                connection.metrics().timedOutInQueue.increment();
                response = WireFormat.errorResponse(connection.alloc(), callId, RpcStatus.TIMED_OUT,
                        "deadline of " + timeoutMillis + " ms passed while the call waited in the service queue");
            } else {
                response = invoke(req);
            }
        } finally {
            req.release();
        }
        connection.sendResponse(this);
    }

    /**
     * Runs the handler into a response buffer that cannot grow past a frame of {@code maxFrameBytes}: a handler
     * sees in {@link ByteBuf#maxWritableBytes()} how large a body may be, and one that writes more fails at that
     * write instead of after the whole body was built.
     */
    private ByteBuf invoke(ByteBuf req) {
        ByteBuf resp = connection.alloc().ioBuffer(connection.callBufferInitialBytes(),
                connection.responseMaxCapacity());
        WireFormat.beginResponse(resp);
        int bodyBytes = req.readableBytes();
        RpcStatus status = RpcStatus.OK;
        String detail = null;
        try {
            handler.handle(req, resp);
        } catch (RpcException e) {
            status = e.status().code() >= 0 && e.status() != RpcStatus.OK ? e.status() : RpcStatus.REMOTE_ERROR;
            detail = e.detail();
        } catch (IndexOutOfBoundsException e) {
            if (ranPastTheEnd(e, req)) {
                status = RpcStatus.INVALID_REQUEST;
                detail = "request body too short: the method read past its " + bodyBytes + " bytes";
            } else if (ranPastTheEnd(e, resp)) {
                status = RpcStatus.REMOTE_ERROR;
                detail = "the response does not fit in a frame of maxFrameBytes " + connection.maxFrameBytes();
            } else {
                status = RpcStatus.REMOTE_ERROR;
                detail = "the method's handler went out of bounds: " + e.getMessage();
            }
        } catch (Throwable t) {
            status = RpcStatus.REMOTE_ERROR;
            detail = t.getMessage() == null ? "the method's handler failed without saying why" : t.getMessage();
        }
        connection.metrics().callsHandled.increment();
        if (status != RpcStatus.OK) {
            // a buffer of its own: the detail need not fit in what the handler's body could hold
            resp.release();
            return WireFormat.errorResponse(connection.alloc(), callId, status, String.valueOf(detail));
        }
        WireFormat.finishResponse(resp, callId, status);
        return resp;
    }

    /**
     * Whether {@code e} says that {@code buffer} ran short: the request had fewer readable bytes than the handler
     * read, or the response could not grow by what the handler wrote. Netty ends the message of such a failure
     * with the buffer at fault ({@code readerIndex(4) + length(4) exceeds writerIndex(6): <buffer>}, {@code
     * writerIndex(9) + minWritableBytes(…) exceeds maxCapacity(…): <buffer>}), so each is told apart from a bound
     * broken elsewhere, such as an array of the handler's. The buffer is looked for through its wrappers.
     */
    private static boolean ranPastTheEnd(IndexOutOfBoundsException e, ByteBuf buffer) {
        String message = e.getMessage();
        // the buffer that threw may be wrapped: the leak detector wraps the buffers it samples, and the wrapper's
        // text is not the wrapped buffer's (one call in a hundred or so was a remote error instead of too short)
        for (ByteBuf layer = buffer; message != null && layer != null; layer = layer.unwrap()) {
            if (message.endsWith(layer.toString())) {
                return true;
            }
        }
        return false;
    }

    ByteBuf takeResponse() {
        ByteBuf r = response;
        response = null;
        return r;
    }

    /** On the reactor: write the response. */
    @Override
    public void run() {
        connection.writeResponse(this);
    }

    /** Releases what a call that will never run still holds. */
    void discard() {
        if (request != null) {
            request.release();
            request = null;
        }
        if (response != null) {
            response.release();
            response = null;
        }
        handler = null;
    }

    void clear() {
        handler = null;
        request = null;
        response = null;
    }
}
