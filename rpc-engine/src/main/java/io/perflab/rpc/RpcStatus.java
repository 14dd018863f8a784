package io.perflab.rpc;

/**
 * Outcome of a call. The first five travel on the wire (one byte, {@link #code()}); the others are
 * decided on the client.
 */
public enum RpcStatus {
    /** The method ran and answered. */
    OK(0),
    /** The method threw; its message travels back. */
    REMOTE_ERROR(1),
    /** The server has no method of that name. */
    NO_SUCH_METHOD(2),
    /** The request (or, on the client, the response) body could not be decoded. */
    INVALID_REQUEST(3),
    /** The service queue was full. */
    SERVER_TOO_BUSY(4),
    /** The deadline passed, on the client timer or while queued on the server. */
    TIMED_OUT(5),
    /** The connection failed or was closed with the call in flight, or could not be opened. */
    NETWORK_ERROR(-1),
    /** The caller cancelled the call (or was interrupted while waiting). */
    CANCELLED(-2),
    /** The client was closed. */
    SHUTDOWN(-3);

    private static final RpcStatus[] BY_WIRE_CODE = {OK, REMOTE_ERROR, NO_SUCH_METHOD, INVALID_REQUEST,
            SERVER_TOO_BUSY, TIMED_OUT};

    private final int code;

    RpcStatus(int code) {
        this.code = code;
    }

    /** The byte sent on the wire; negative for client-side statuses, which never travel. */
    public int code() {
        return code;
    }

    /** Status for a wire code, or {@code null} if the code is not one a server sends. */
    static RpcStatus fromWireCode(int code) {
        return code >= 0 && code < BY_WIRE_CODE.length ? BY_WIRE_CODE[code] : null;
    }
}
