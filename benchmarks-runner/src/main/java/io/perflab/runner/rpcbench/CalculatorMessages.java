package io.perflab.runner.rpcbench;

/**
 * The benchmark service's message layout, the same on every stack so that each call does the same work: Add's
 * request is {@code int32 x, int32 y} (8 bytes, big-endian) and its answer {@code int32 x + y}; Echo's request is
 * {@code int32 responseBytes} then any payload, and its answer {@code responseBytes} bytes, the payload's first
 * bytes padded with zeros. The peers' servers check requests and their clients check answers here, with the
 * engine's limits and words.
 */
final class CalculatorMessages {

    static final int ADD_REQUEST_BYTES = 8;
    static final int ADD_ANSWER_BYTES = 4;
    /** Echo's request header: {@code int32 responseBytes}. */
    static final int ECHO_HEADER_BYTES = 4;
    /** The largest Echo answer a server builds: the engine's default maximum frame, 64 MiB. */
    static final int MAX_ECHO_ANSWER_BYTES = 64 * 1024 * 1024;

    private CalculatorMessages() {
    }

    /** Why an Add request of {@code bytes} bytes is malformed, or null if it is not. */
    static String addRequestProblem(int bytes) {
        return bytes == ADD_REQUEST_BYTES ? null
                : "Calculator.Add expects 8 bytes (int32 x, int32 y), got " + bytes;
    }

    /** Why an Echo request of {@code bytes} bytes is too short to say its answer's size, or null. */
    static String echoRequestProblem(int bytes) {
        return bytes >= ECHO_HEADER_BYTES ? null
                : "Calculator.Echo expects int32 responseBytes, got " + bytes + " bytes";
    }

    /** Why an Echo request asking for {@code responseBytes} cannot be answered, or null if it can. */
    static String echoAnswerProblem(int responseBytes) {
        if (responseBytes < 0) {
            return "Calculator.Echo responseBytes is negative: " + responseBytes;
        }
        return responseBytes <= MAX_ECHO_ANSWER_BYTES ? null
                : "Calculator.Echo responseBytes " + responseBytes + " exceeds " + MAX_ECHO_ANSWER_BYTES;
    }

    /**
     * Why an answer of {@code bytes} bytes is not what {@code workload} expects (the sum's 4 bytes for Add, the
     * asked length for Echo), or null if it is.
     */
    static String answerProblem(Workload workload, int bytes) {
        if (workload.echo()) {
            return bytes == workload.responseBytes() ? null
                    : "Echo answered " + bytes + " bytes, expected " + workload.responseBytes();
        }
        return bytes == ADD_ANSWER_BYTES ? null : "Add answered " + bytes + " bytes, expected 4";
    }
}
