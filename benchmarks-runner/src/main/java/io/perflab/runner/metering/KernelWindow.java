package io.perflab.runner.metering;

import java.util.OptionalLong;

/**
 * What the kernel meter saw in a measured window.
 *
 * @param cpuSplit how the window's CPU time divides into user and system time
 * @param syscalls system calls of the measured threads in the window; empty where they were not counted
 * @param syscallsReason why they were not counted; null when they were
 * @param instructions instructions the measured threads executed in the window, user and kernel mode; empty where
 *     the hardware counters were not counted
 * @param cycles CPU cycles of the measured threads in the window; empty with {@code instructions}
 * @param hardwareReason why instructions and cycles were not counted; null when they were
 */
public record KernelWindow(CpuSplit cpuSplit, OptionalLong syscalls, String syscallsReason,
                           OptionalLong instructions, OptionalLong cycles, String hardwareReason) {

    /** A window measured without the kernel meter. */
    public static final KernelWindow NOT_METERED = new KernelWindow(CpuSplit.tick("not metered"),
            OptionalLong.empty(), "not metered", OptionalLong.empty(), OptionalLong.empty(), "not metered");
}
