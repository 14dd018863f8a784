package io.perflab.runner.metering;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * How the Linux kernel divides a process's CPU time into user and system time, and how far that division can be
 * trusted over a short window.
 *
 * <p>The total is exact: the scheduler adds up each thread's time on CPU in nanoseconds. The split is not, on a
 * kernel built with {@code CONFIG_TICK_CPU_ACCOUNTING} (most distribution and cloud kernels): at every timer
 * tick ({@code CONFIG_HZ} times a second per busy CPU) the kernel notes whether the running thread was in user
 * or kernel mode, and {@code getrusage} scales the exact total by the share of ticks that landed in user mode.
 * Over a window in which the process ran {@code N} ticks with a true user share {@code p}, the user ticks are a
 * binomial count, so user time carries a relative standard error of {@code sqrt((1 − p) / (p N))} and system
 * time {@code sqrt(p / ((1 − p) N))}. That is a floor under the run-to-run spread of user and system CPU per
 * request that no quieter machine lowers; only more CPU time per window does. Example: 2 busy CPUs for 5 s at
 * 250 Hz are 2,500 ticks; with 17 % of the time in user mode, user CPU cannot be steadier than ±4.4 %.
 *
 * <p>Kernels with {@code CONFIG_VIRT_CPU_ACCOUNTING_NATIVE}, or {@code CONFIG_VIRT_CPU_ACCOUNTING_GEN} on CPUs
 * listed in {@code nohz_full}, time every user/kernel transition instead, and the split is exact.
 *
 * @param kind how the split is made
 * @param hz the timer frequency ({@code CONFIG_HZ}); 0 when not known
 */
public record CpuTimeAccounting(Kind kind, int hz) {

    /** How the kernel splits user from system time. */
    public enum Kind {
        /** Sampled at each timer tick. */
        TICK,
        /** Timed at each transition between user and kernel mode. */
        PRECISE,
        /** The kernel's configuration could not be read. */
        UNKNOWN
    }

    public static final CpuTimeAccounting UNKNOWN = new CpuTimeAccounting(Kind.UNKNOWN, 0);

    private static final Path PROC_CONFIG = Path.of("/proc/config.gz");
    private static final Path NOHZ_FULL = Path.of("/sys/devices/system/cpu/nohz_full");

    /** This host's accounting, read once: {@code /proc/config.gz}, else {@code /boot/config-<release>}. */
    public static CpuTimeAccounting host() {
        return Host.ACCOUNTING;
    }

    private static final class Host {
        static final CpuTimeAccounting ACCOUNTING = detect(PROC_CONFIG,
                Path.of("/boot/config-" + System.getProperty("os.version")), NOHZ_FULL);
    }

    static CpuTimeAccounting detect(Path gzippedConfig, Path plainConfig, Path nohzFull) {
        try {
            List<String> config;
            if (Files.isReadable(gzippedConfig)) {
                try (InputStream in = new GZIPInputStream(Files.newInputStream(gzippedConfig))) {
                    config = lines(in);
                }
            } else if (Files.isReadable(plainConfig)) {
                config = Files.readAllLines(plainConfig, StandardCharsets.UTF_8);
            } else {
                return UNKNOWN;
            }
            String fullCpus = Files.isReadable(nohzFull) ? Files.readString(nohzFull).strip() : "";
            return fromConfig(config, !fullCpus.isEmpty() && !fullCpus.equals("(null)"));
        } catch (IOException | RuntimeException unreadable) {
            return UNKNOWN;
        }
    }

    /**
     * The accounting a kernel configuration selects.
     *
     * @param config the lines of the kernel's {@code .config}
     * @param nohzFullCpus whether some CPUs run in {@code nohz_full} mode (the only ones that
     *     {@code VIRT_CPU_ACCOUNTING_GEN} times exactly; a benchmark is taken to run on them when there are any)
     */
    static CpuTimeAccounting fromConfig(List<String> config, boolean nohzFullCpus) {
        int hz = 0;
        boolean tick = false;
        boolean nativeVirt = false;
        boolean genVirt = false;
        for (String line : config) {
            String l = line.strip();
            if (l.startsWith("CONFIG_HZ=")) {
                hz = Integer.parseInt(l.substring("CONFIG_HZ=".length()));
            } else if (l.equals("CONFIG_TICK_CPU_ACCOUNTING=y")) {
                tick = true;
            } else if (l.equals("CONFIG_VIRT_CPU_ACCOUNTING_NATIVE=y")) {
                nativeVirt = true;
            } else if (l.equals("CONFIG_VIRT_CPU_ACCOUNTING_GEN=y")) {
                genVirt = true;
            }
        }
        if (nativeVirt || (genVirt && nohzFullCpus)) {
            return new CpuTimeAccounting(Kind.PRECISE, hz);
        }
        if ((tick || genVirt) && hz > 0) {
            return new CpuTimeAccounting(Kind.TICK, hz);
        }
        return UNKNOWN;
    }

    /**
     * The relative standard error (a fraction) that tick sampling alone gives user time over a window, or NaN
     * when the split is exact, unknown, or there is no time in one of the modes.
     *
     * @param userMicros user time in the window
     * @param systemMicros system time in the window
     */
    public double userSamplingError(long userMicros, long systemMicros) {
        return samplingError(userMicros, systemMicros);
    }

    /** As {@link #userSamplingError}, for system time. */
    public double systemSamplingError(long userMicros, long systemMicros) {
        return samplingError(systemMicros, userMicros);
    }

    private double samplingError(long part, long rest) {
        if (kind != Kind.TICK || part <= 0 || rest < 0) {
            return Double.NaN;
        }
        double ticks = (part + rest) / 1e6 * hz;
        return CpuSplit.relativeError(ticks * part / (part + rest), ticks);
    }

    /** For a trial's environment: {@code tick 250 Hz}, {@code precise} or {@code unknown}. */
    public String describe() {
        return switch (kind) {
            case TICK -> String.format(Locale.ROOT, "tick %d Hz", hz);
            case PRECISE -> "precise";
            case UNKNOWN -> "unknown";
        };
    }

    private static List<String> lines(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
            }
        }
        return lines;
    }
}
