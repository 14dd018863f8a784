package io.perflab.runner.metering;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;

/**
 * {@code getrusage(2)} through JNA.
 *
 * <p>{@code struct rusage} on LP64 Linux (and macOS) is two {@code struct timeval} (seconds, microseconds, each
 * a {@code long}) followed by fourteen {@code long} counters, so it is read as {@code long[18]}:
 * <pre>
 *  0 ru_utime.tv_sec   1 ru_utime.tv_usec   2 ru_stime.tv_sec   3 ru_stime.tv_usec
 *  4 ru_maxrss  5 ru_ixrss  6 ru_idrss  7 ru_isrss  8 ru_minflt  9 ru_majflt  10 ru_nswap
 * 11 ru_inblock 12 ru_oublock 13 ru_msgsnd 14 ru_msgrcv 15 ru_nsignals 16 ru_nvcsw 17 ru_nivcsw
 * </pre>
 */
final class Rusage {

    static final int RUSAGE_SELF = 0;
    static final int RUSAGE_CHILDREN = -1;
    static final int RUSAGE_THREAD = 1;

    private static final int FIELDS = 18;

    private interface CLibrary extends Library {
        int getrusage(int who, long[] usage);
    }

    private static final class Holder {
        static final CLibrary C = load();

        private static CLibrary load() {
            if (!Platform.is64Bit() || !(Platform.isLinux() || Platform.isMac())) {
                throw new UnsupportedOperationException("resource metering needs 64-bit Linux or macOS; this is "
                        + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
            }
            return Native.load(Platform.C_LIBRARY_NAME, CLibrary.class);
        }
    }

    private Rusage() {
    }

    static ResourceUsage read(int who) {
        long[] r = new long[FIELDS];
        if (Holder.C.getrusage(who, r) != 0) {
            throw new IllegalStateException("getrusage(" + who + ") failed: errno " + Native.getLastError());
        }
        return new ResourceUsage(r[0] * 1_000_000L + r[1], r[2] * 1_000_000L + r[3], r[16], r[17], r[8] + r[9]);
    }
}
