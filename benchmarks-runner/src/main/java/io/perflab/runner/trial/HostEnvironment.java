package io.perflab.runner.trial;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a trial runs on: JVM, host, CPU, kernel, load. Linux files under {@code /proc} are read when present;
 * elsewhere the entries they feed are left out.
 */
public final class HostEnvironment {

    private static final Path LOADAVG = Path.of("/proc/loadavg");
    private static final Path CPUINFO = Path.of("/proc/cpuinfo");
    private static final Path STATUS = Path.of("/proc/self/status");

    private HostEnvironment() {
    }

    /**
     * The environment entries of this JVM and host, in a stable order. A trial reads them before it starts its load,
     * so that {@code load_average} is the host's before this trial's threads, not theirs; the 1-minute average
     * still carries an earlier trial's threads for a minute or so after they ended.
     */
    public static Map<String, String> capture() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("jvm_version", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name")
                + " " + System.getProperty("java.runtime.version"));
        env.put("jvm_flags", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        env.put("host", hostName());
        cpuModel().ifPresent(model -> env.put("cpu_model", model));
        env.put("cpu_count", Integer.toString(Runtime.getRuntime().availableProcessors()));
        cpusAllowed().ifPresent(cpus -> env.put("cpus_allowed", cpus));
        env.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        loadAverage().ifPresent(load -> env.put("load_average", load.toString()));
        return env;
    }

    /** The physical memory of this host in bytes (a container's limit inside one). */
    public static long memoryBytes() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
    }

    /** The 1/5/15-minute load averages and the runnable task count from {@code /proc/loadavg}. */
    public static Optional<LoadAverage> loadAverage() {
        try {
            String[] fields = Files.readString(LOADAVG).strip().split("\\s+");
            String[] running = fields[3].split("/");
            return Optional.of(new LoadAverage(Double.parseDouble(fields[0]), Double.parseDouble(fields[1]),
                    Double.parseDouble(fields[2]), Integer.parseInt(running[0])));
        } catch (IOException | RuntimeException notLinux) {
            double one = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            return one < 0 ? Optional.empty() : Optional.of(new LoadAverage(one, -1, -1, -1));
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return Optional.ofNullable(System.getenv("HOSTNAME")).orElse("unknown");
        }
    }

    private static Optional<String> cpuModel() {
        return procField(CPUINFO, "model name");
    }

    /** The CPUs this process may run on, e.g. {@code 0-1} or {@code 1} under {@code taskset -c 1}. */
    private static Optional<String> cpusAllowed() {
        return procField(STATUS, "Cpus_allowed_list");
    }

    private static Optional<String> procField(Path file, String name) {
        try {
            List<String> lines = Files.readAllLines(file);
            for (String line : lines) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().equals(name)) {
                    return Optional.of(line.substring(colon + 1).strip());
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            // not Linux: the entry is left out
        }
        return Optional.empty();
    }

    /**
     * The host's load.
     *
     * @param oneMinute 1-minute load average
     * @param fiveMinutes 5-minute load average, -1 if unknown
     * @param fifteenMinutes 15-minute load average, -1 if unknown
     * @param runnable tasks runnable right now (including the reader), -1 if unknown
     */
    public record LoadAverage(double oneMinute, double fiveMinutes, double fifteenMinutes, int runnable) {

        /**
         * Whether other work is likely to disturb a benchmark on {@code cpus} CPUs. It holds for a load read before
         * the benchmark starts: a benchmark's own threads alone give a load of 7 to 16 on two CPUs.
         */
        public boolean isHigh(int cpus) {
            return oneMinute > Math.max(0.5, 0.25 * cpus);
        }

        /**
         * The warning of a high load ({@link #isHigh}), the one text for the command line and the service, e.g.
         * {@code load average 5.16 on 2 CPUs: other work competes with the benchmark, expect noisy figures}; empty
         * when the load is not high.
         *
         * @param measured when the load was read, put after the CPUs (e.g. {@code " as the first trial started"});
         *     empty for now
         */
        public Optional<String> warning(int cpus, String measured) {
            return isHigh(cpus) ? Optional.of(String.format(java.util.Locale.ROOT, "load average %.2f on %d CPUs%s: "
                    + "other work competes with the benchmark, expect noisy figures", oneMinute, cpus, measured))
                    : Optional.empty();
        }

        /**
         * Reads a load as {@link #toString()} wrote it into a trial's environment ({@code 0.52 0.40 0.31 (2
         * runnable)}), or its 1-minute average alone; empty for anything else.
         */
        public static Optional<LoadAverage> parse(String recorded) {
            if (recorded == null) {
                return Optional.empty();
            }
            String[] fields = recorded.strip().replace("(", "").split("\\s+");
            try {
                double one = Double.parseDouble(fields[0]);
                if (fields.length == 1) {
                    return Double.isFinite(one) ? Optional.of(new LoadAverage(one, -1, -1, -1)) : Optional.empty();
                }
                LoadAverage load = new LoadAverage(one, Double.parseDouble(fields[1]), Double.parseDouble(fields[2]),
                        Integer.parseInt(fields[3]));
                return Double.isFinite(one) ? Optional.of(load) : Optional.empty();
            } catch (RuntimeException notALoad) {
                return Optional.empty();
            }
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%.2f %.2f %.2f (%d runnable)", oneMinute, fiveMinutes,
                    fifteenMinutes, runnable);
        }
    }
}
