package io.perflab.runner.metering;

/**
 * A sampling session's {@code cpu-clock} samples could not all be read ({@link CpuSampler.Session#stop}): a ring
 * buffer's head and tail went out of step, it held a record the kernel does not write, it reported a loss of
 * samples without a time stamp, which may be the window's or not, or it was still full when sampling stopped, so
 * that the kernel may have dropped samples of the window without saying how many. The message says which buffer and
 * what was wrong.
 */
public final class UnreadableSamplesException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    UnreadableSamplesException(String message) {
        super(message);
    }
}
