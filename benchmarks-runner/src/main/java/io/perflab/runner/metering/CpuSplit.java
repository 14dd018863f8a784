package io.perflab.runner.metering;

import java.util.Locale;

/**
 * How a window's CPU time, whose total {@code getrusage} gives exactly, was divided into user and system time:
 * by the share of {@code cpu-clock} samples that landed in user and in kernel mode ({@link Source#SAMPLED}), or
 * as {@code getrusage} divides it ({@link Source#TICK}; sampled at each timer tick on most kernels, see
 * {@link CpuTimeAccounting}).
 *
 * <p>A sampled split is a binomial estimate: with {@code n} samples of which a share {@code p} in user mode, user
 * time carries a relative standard error of {@code sqrt((1 − p) / (p n))} and system time
 * {@code sqrt(p / ((1 − p) n))}. At 4,999 Hz on 2 busy CPUs a 5 s window holds about 50,000 samples, against
 * 2,500 ticks at 250 Hz: 4.5 times less error.
 *
 * @param source where the split comes from
 * @param userSamples samples of the measured threads in user mode (0 for a tick split)
 * @param kernelSamples samples of the measured threads in kernel mode (0 for a tick split)
 * @param rateHz samples per second of each CPU (0 for a tick split)
 * @param lostSamples samples the kernel dropped for want of buffer space, of any thread
 * @param unnamedSamples samples of the process's threads that ended before they could be named, which may have been
 *     the JIT's compiler threads or the workload's: left out of the split, which is the named threads' (0 for a tick
 *     split)
 * @param reason for a tick split, why it is not sampled; null for a sampled split
 */
public record CpuSplit(Source source, long userSamples, long kernelSamples, int rateHz, long lostSamples,
                       long unnamedSamples, String reason) {

    /** Where a split comes from. */
    public enum Source {
        SAMPLED, TICK;

        /** {@code sampled} or {@code tick}, as trials record it in {@code cpu_split_source}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@code getrusage}'s split, for {@code reason}. */
    public static CpuSplit tick(String reason) {
        return new CpuSplit(Source.TICK, 0, 0, 0, 0, 0, reason);
    }

    /** The split of {@code counts}; the tick split, saying so, when no sample landed in the measured threads. */
    public static CpuSplit sampled(CpuSampler.Counts counts) {
        if (counts.user() + counts.kernel() == 0) {
            return tick("no cpu-clock sample of the measured threads in user or kernel mode in the window"
                    + (counts.unnamed() > 0 ? "; " + counts.unnamed() + " samples were of threads that ended before "
                    + "they could be named, which may have been the JIT's compiler threads" : ""));
        }
        return new CpuSplit(Source.SAMPLED, counts.user(), counts.kernel(), counts.rateHz(), counts.lost(),
                counts.unnamed(), null);
    }

    /** User plus kernel samples. */
    public long samples() {
        return userSamples + kernelSamples;
    }

    /**
     * The share of the window's samples of this process that are of threads that ended before they could be named
     * ({@link #unnamedSamples}), 0 to 1: the part of its CPU time the split could not judge.
     */
    public double unnamedShare() {
        return unnamedSamples == 0 ? 0 : (double) unnamedSamples / (samples() + unnamedSamples);
    }

    /**
     * {@code usage} with its exact CPU total divided in the share of user-mode samples; unchanged for a tick
     * split.
     */
    public ResourceUsage applyTo(ResourceUsage usage) {
        if (source == Source.TICK) {
            return usage;
        }
        long total = usage.cpuMicros();
        long user = Math.round((double) total * userSamples / samples());
        return usage.withCpuSplit(user, total - user);
    }

    /** The relative standard error of user time from sampling (a fraction); NaN for a tick split or no user samples. */
    public double userSamplingError() {
        return source == Source.TICK ? Double.NaN : relativeError(userSamples, samples());
    }

    /** As {@link #userSamplingError()}, for system time. */
    public double systemSamplingError() {
        return source == Source.TICK ? Double.NaN : relativeError(kernelSamples, samples());
    }

    /**
     * The relative standard error of a part estimated as a binomial share: {@code sqrt((1 − p) / (p n))} with
     * {@code p = part / samples}; NaN when the part or the sample is empty.
     *
     * @param part the samples (or ticks) that landed in the part, may be fractional
     * @param samples all samples (or ticks)
     */
    static double relativeError(double part, double samples) {
        if (part <= 0 || samples <= 0 || part > samples) {
            return Double.NaN;
        }
        double share = part / samples;
        return Math.sqrt((1 - share) / (share * samples));
    }
}
