package io.perflab.runner.rpcbench;

/**
 * A call under load that failed; the message says how (a status and its description, a wrong answer, a closed
 * connection) and goes to the report. Without a stack trace: failures are counted, not debugged.
 */
final class CallFailedException extends Exception {

    CallFailedException(String description) {
        super(description, null, false, false);
    }
}
