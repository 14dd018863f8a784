package io.perflab.runner.metering;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Run by {@link ResourceUsageTests} in a JVM started with {@code -Xint -XX:+UseSerialGC}, so that no compiler
 * or concurrent GC thread adds CPU time: burns {@code args[0]} ms of CPU in one thread and prints
 * {@code <self user µs> <self system µs> <burner thread CPU µs>}.
 */
public final class BurnInFreshJvm {

    private static volatile long sink;

    public static void main(String[] args) throws InterruptedException {
        long nanos = Long.parseLong(args[0]) * 1_000_000L;
        long[] burned = new long[1];
        ResourceUsage.self(); // load JNA before the first reading
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ResourceUsage before = ResourceUsage.self();
        long processBefore = os.getProcessCpuTime();
        Thread burner = new Thread(() -> burned[0] = burnUserCpu(nanos, 20_000)); // small steps: -Xint is slow
        burner.start();
        burner.join();
        long process = os.getProcessCpuTime() - processBefore;
        ResourceUsage delta = ResourceUsage.self().minus(before);
        System.out.println(delta.userMicros() + " " + delta.systemMicros() + " " + burned[0] / 1000 + " "
                + process / 1000);
    }

    /**
     * Burns at least {@code nanos} of the calling thread's CPU time in user space, checking the thread's CPU clock
     * every {@code steps} steps of a linear congruential generator; returns the CPU time it burned.
     */
    static long burnUserCpu(long nanos, int steps) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        long x = 0;
        long used;
        do {
            for (int i = 0; i < steps; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            used = threads.getCurrentThreadCpuTime() - start;
        } while (used < nanos);
        sink = x;
        return used;
    }
}
