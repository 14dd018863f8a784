package io.perflab.rpc;

import java.util.Objects;

/** A call that did not complete with {@link RpcStatus#OK}: its status and a message saying why. */
public class RpcException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final RpcStatus status;
    private final String detail;

    public RpcException(RpcStatus status, String detail) {
        super(status + ": " + detail);
        this.status = Objects.requireNonNull(status, "status");
        this.detail = detail;
    }

    public RpcException(RpcStatus status, String detail, Throwable cause) {
        super(status + ": " + detail, cause);
        this.status = Objects.requireNonNull(status, "status");
        this.detail = detail;
    }

    public RpcStatus status() {
        return status;
    }

    /** The message without the status prefix (for a remote error: the handler's message). */
    public String detail() {
        return detail;
    }
}
