package io.perflab.runner.metering;

import java.util.Locale;

/** Where a trial's division of CPU time into user and system time comes from. */
public enum CpuSplitMode {

    /** {@code getrusage}'s own split: tick-sampled on most kernels ({@link CpuTimeAccounting}). */
    TICK,
    /** {@code cpu-clock} samples ({@link CpuSampler}); a trial fails where they cannot be taken. */
    SAMPLED,
    /**
     * Samples where perf events are allowed and the kernel's split is not exact already; the kernel's split,
     * with the reason recorded, elsewhere.
     */
    AUTO;

    /** {@code tick}, {@code sampled} or {@code auto}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param flag how the user gave the value, for the message
     * @throws IllegalArgumentException naming {@code flag} and the values allowed
     */
    public static CpuSplitMode parse(String flag, String value) {
        for (CpuSplitMode mode : values()) {
            if (mode.label().equals(value == null ? "" : value.strip().toLowerCase(Locale.ROOT))) {
                return mode;
            }
        }
        throw new IllegalArgumentException(flag + " must be tick, sampled or auto, got '" + value + "'");
    }
}
