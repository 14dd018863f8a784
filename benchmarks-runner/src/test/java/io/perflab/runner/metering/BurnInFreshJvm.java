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
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] burned = new long[1];
        ResourceUsage.self(); // load JNA before the first reading
        ResourceUsage before = ResourceUsage.self();
        Thread burner = new Thread(() -> {
            long start = threads.getCurrentThreadCpuTime();
            long x = 0;
            long used;
            do {
                for (int i = 0; i < 20_000; i++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
                used = threads.getCurrentThreadCpuTime() - start;
            } while (used < nanos);
            sink = x;
            burned[0] = used;
        });
        burner.start();
        burner.join();
        ResourceUsage delta = ResourceUsage.self().minus(before);
        System.out.println(delta.userMicros() + " " + delta.systemMicros() + " " + burned[0] / 1000);
    }
}
