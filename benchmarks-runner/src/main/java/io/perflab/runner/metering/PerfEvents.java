package io.perflab.runner.metering;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code perf_event_open(2)} and the calls around it (ioctl, read, mmap, close) through JNA, with errors turned
 * into {@link PerfEventException}s that say what is missing.
 */
final class PerfEvents {

    static final long IOC_ENABLE = 0x2400;
    static final long IOC_DISABLE = 0x2401;
    private static final long FLAG_FD_CLOEXEC = 8;

    private static final int PROT_READ = 1;
    private static final int PROT_WRITE = 2;
    private static final int MAP_SHARED = 1;

    static final Path PARANOID = Path.of("/proc/sys/kernel/perf_event_paranoid");

    private interface CLibrary extends Library {
        long syscall(long number, Object... args);

        int ioctl(int fd, long request, Object... args);

        long read(int fd, long[] buffer, long count);

        int close(int fd);

        Pointer mmap(Pointer address, long length, int protection, int flags, int fd, long offset);

        int munmap(Pointer address, long length);

        int getpagesize();
    }

    private static final class Holder {
        static final CLibrary C = Native.load(Platform.C_LIBRARY_NAME, CLibrary.class);
    }

    private PerfEvents() {
    }

    /**
     * Opens an event.
     *
     * @param pid the thread to follow, or -1 for every thread on {@code cpu}
     * @param cpu the CPU to follow, or -1 for every CPU {@code pid} runs on
     * @return the event's file descriptor
     * @throws PerfEventException what the kernel refused, in words
     */
    static int open(PerfEventAttr attr, int pid, int cpu) {
        long number = syscallNumber(System.getProperty("os.arch"));
        if (!Platform.isLinux() || number < 0) {
            throw new PerfEventException(0, "perf events need Linux on x86-64 or aarch64; this is "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        }
        byte[] bytes = attr.encode();
        Memory memory = new Memory(bytes.length);
        memory.write(0, bytes, 0, bytes.length);
        long fd = Holder.C.syscall(number, memory, (long) pid, (long) cpu, -1L, FLAG_FD_CLOEXEC);
        if (fd < 0) {
            int errno = Native.getLastError();
            throw new PerfEventException(errno, "perf_event_open refused " + describe(attr) + ": "
                    + openError(errno, readParanoid()));
        }
        return (int) fd;
    }

    /** {@code perf_event_open}'s system call number on {@code arch}, or -1 where not known. */
    static long syscallNumber(String arch) {
        return switch (arch) {
            case "amd64", "x86_64" -> 298;
            case "aarch64" -> 241;
            default -> -1;
        };
    }

    static void ioctl(int fd, long request) {
        if (Holder.C.ioctl(fd, request, 0L) != 0) {
            int errno = Native.getLastError();
            throw new PerfEventException(errno, String.format(Locale.ROOT, "ioctl(0x%x) on a perf event failed: "
                    + "errno %d", request, errno));
        }
    }

    /** The value of a counting event. */
    static long readCount(int fd) {
        long[] value = new long[1];
        if (Holder.C.read(fd, value, Long.BYTES) != Long.BYTES) {
            int errno = Native.getLastError();
            throw new PerfEventException(errno, "reading a perf counter failed: errno " + errno);
        }
        return value[0];
    }

    /**
     * The value of a counting event opened with {@link PerfEventAttr#FORMAT_TOTAL_TIMES}, scaled to the whole time it
     * was enabled where the kernel counted it only part of that time (multiplexed with other events on too few
     * hardware counters): value × enabled / running, as {@code perf stat} scales it; 0 before it first counted.
     */
    static double readScaledCount(int fd) {
        long[] value = new long[3];
        if (Holder.C.read(fd, value, 3L * Long.BYTES) != 3L * Long.BYTES) {
            int errno = Native.getLastError();
            throw new PerfEventException(errno, "reading a perf counter failed: errno " + errno);
        }
        return scaled(value[0], value[1], value[2]);
    }

    /** {@code value} counted during {@code running} of {@code enabled} nanoseconds, scaled to all of them. */
    static double scaled(long value, long enabled, long running) {
        if (running <= 0) {
            return 0;
        }
        return running >= enabled ? value : value * ((double) enabled / running);
    }

    static void close(int fd) {
        Holder.C.close(fd);
    }

    static int pageSize() {
        return Holder.C.getpagesize();
    }

    /**
     * Maps an event's ring buffer: one page of control data followed by {@code dataPages} (a power of two).
     *
     * @throws PerfEventException when the kernel refuses, typically for want of lockable memory
     */
    static Pointer map(int fd, long bytes) {
        Pointer address = Holder.C.mmap(null, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (address == null || Pointer.nativeValue(address) == -1) {
            int errno = Native.getLastError();
            throw new PerfEventException(errno, "mapping a perf ring buffer of " + bytes / 1024 + " KiB failed: "
                    + "errno " + errno + (errno == 1 || errno == 12 ? " (locked memory: kernel.perf_event_mlock_kb "
                    + "per CPU, then RLIMIT_MEMLOCK, unless CAP_IPC_LOCK)" : ""));
        }
        return address;
    }

    static void unmap(Pointer address, long bytes) {
        Holder.C.munmap(address, bytes);
    }

    /** {@code kernel.perf_event_paranoid}, or {@code Integer.MIN_VALUE} where it cannot be read. */
    static int readParanoid() {
        try {
            return Integer.parseInt(Files.readString(PARANOID).strip());
        } catch (IOException | RuntimeException unreadable) {
            return Integer.MIN_VALUE;
        }
    }

    /** Why {@code perf_event_open} failed with {@code errno}, and what would allow it. */
    static String openError(int errno, int paranoid) {
        String setting = paranoid == Integer.MIN_VALUE ? "kernel.perf_event_paranoid unreadable"
                : "kernel.perf_event_paranoid=" + paranoid;
        return switch (errno) {
            case 1, 13 -> "not permitted (" + setting + "; sampling every CPU needs it ≤ 0, or CAP_PERFMON or "
                    + "CAP_SYS_ADMIN; tracepoints need tracefs access; a container's seccomp profile may refuse "
                    + "perf_event_open too)";
            case 38 -> "perf_event_open is not available (a kernel without CONFIG_PERF_EVENTS, or a seccomp "
                    + "profile that blocks it, as container runtimes' defaults do)";
            case 2, 19, 22, 95 -> "this kernel does not support the event (errno " + errno + ")";
            case 24 -> "too many open files (errno 24)";
            default -> "errno " + errno;
        };
    }

    private static String describe(PerfEventAttr attr) {
        return switch (attr.type()) {
            case PerfEventAttr.TYPE_HARDWARE -> attr.config() == PerfEventAttr.HW_INSTRUCTIONS ? "instructions"
                    : attr.config() == PerfEventAttr.HW_CPU_CYCLES ? "cycles" : "hardware event " + attr.config();
            case PerfEventAttr.TYPE_SOFTWARE -> attr.config() == PerfEventAttr.SW_TASK_CLOCK ? "task-clock"
                    : "cpu-clock";
            case PerfEventAttr.TYPE_TRACEPOINT -> "tracepoint " + attr.config();
            default -> "event type " + attr.type();
        };
    }

    /** A perf event the kernel refused, with the reason in the user's terms. */
    static final class PerfEventException extends RuntimeException {

        private final int errno;

        PerfEventException(int errno, String message) {
            super(message);
            this.errno = errno;
        }

        int errno() {
            return errno;
        }
    }
}
