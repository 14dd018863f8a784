package io.perflab.runner.metering;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The host's CPU time from the first line of {@code /proc/stat}, to tell how busy the machine was during a
 * measured window: busy = user + nice + system + irq + softirq + steal, total = busy + idle + iowait.
 * Linux only; elsewhere {@link #read()} is empty.
 */
public final class HostCpu {

    private static final Path STAT = Path.of("/proc/stat");

    private HostCpu() {
    }

    /** The host's cumulative CPU ticks, or empty where {@code /proc/stat} is unavailable. */
    public static Optional<Ticks> read() {
        return read(STAT);
    }

    static Optional<Ticks> read(Path stat) {
        try {
            List<String> lines = Files.readAllLines(stat);
            String first = lines.get(0);
            String[] f = first.strip().split("\\s+");
            if (!f[0].equals("cpu")) {
                return Optional.empty();
            }
            long user = Long.parseLong(f[1]);
            long nice = Long.parseLong(f[2]);
            long system = Long.parseLong(f[3]);
            long idle = Long.parseLong(f[4]);
            long iowait = f.length > 5 ? Long.parseLong(f[5]) : 0;
            long irq = f.length > 6 ? Long.parseLong(f[6]) : 0;
            long softirq = f.length > 7 ? Long.parseLong(f[7]) : 0;
            long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
            long busy = user + nice + system + irq + softirq + steal;
            // the host's online CPUs, whatever this process may run on (taskset narrows availableProcessors)
            int cpus = (int) lines.stream().filter(line -> line.length() > 3 && line.startsWith("cpu")
                    && Character.isDigit(line.charAt(3))).count();
            return Optional.of(new Ticks(busy, busy + idle + iowait, Math.max(1, cpus)));
        } catch (IOException | RuntimeException notLinux) {
            return Optional.empty();
        }
    }

    /**
     * Cumulative ticks of all CPUs.
     *
     * @param busy ticks spent busy, all CPUs
     * @param total all ticks, all CPUs
     * @param cpus the host's CPUs that {@code /proc/stat} lists
     */
    public record Ticks(long busy, long total, int cpus) {

        /**
         * The share of the host's CPU capacity used by everything but this process between {@code start} and
         * now, in percent: host busy share minus {@code ownCpuMicros} over {@code cpus × elapsed}, with the
         * host's CPUs, not the ones this process is pinned to.
         */
        public double othersPercentSince(Ticks start, long ownCpuMicros, long elapsedNanos) {
            long totalDelta = total - start.total;
            if (totalDelta <= 0 || elapsedNanos <= 0) {
                return Double.NaN;
            }
            double hostBusy = (double) (busy - start.busy) / totalDelta;
            double own = ownCpuMicros * 1000.0 / ((double) elapsedNanos * cpus);
            return Math.max(0, 100 * (hostBusy - own));
        }
    }
}
