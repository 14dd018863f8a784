package io.perflab.runner.rpcbench;

/**
 * A call under load that failed; the message says how (a status and its description, a wrong answer, a closed
 * connection) and goes to the report. Without a stack trace: failures are counted, not debugged.
 */
final class CallFailedException extends Exception {

    private final boolean connectionLost;

    CallFailedException(String description) {
        this(description, false);
    }

    private CallFailedException(String description, boolean connectionLost) {
        super(description, null, false, false);
        this.connectionLost = connectionLost;
    }

    /** A failure that leaves the connection closed for good: no later call on it can succeed. */
    static CallFailedException connectionLost(String description) {
        return new CallFailedException(description, true);
    }

    /** Whether the connection is closed for good, so that calling on is pointless. */
    boolean connectionLost() {
        return connectionLost;
    }
}
