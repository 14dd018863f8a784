package io.perflab.runner.metering;

import java.util.OptionalLong;

/**
 * What the kernel meter saw in a measured window.
 *
 * @param cpuSplit how the window's CPU time divides into user and system time
 * @param syscalls system calls of the measured threads in the window; empty where they were not counted
 * @param syscallsReason why they were not counted; null when they were
 */
public record KernelWindow(CpuSplit cpuSplit, OptionalLong syscalls, String syscallsReason) {

    /** A window measured without the kernel meter. */
    public static final KernelWindow NOT_METERED = new KernelWindow(CpuSplit.tick("not metered"),
            OptionalLong.empty(), "not metered");
}
