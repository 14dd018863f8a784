package io.perflab.runner.metering;

/**
 * CPU time and context switches of a process as {@code getrusage(2)} reports them, or the difference of two
 * such readings.
 *
 * @param userMicros user CPU time ({@code ru_utime}) in microseconds
 * @param systemMicros system CPU time ({@code ru_stime}) in microseconds
 * @param voluntaryContextSwitches {@code ru_nvcsw}: the process gave up the CPU, usually to wait for something
 * @param involuntaryContextSwitches {@code ru_nivcsw}: the scheduler took the CPU away (time slice, a higher
 *     priority task)
 * @param pageFaults {@code ru_minflt + ru_majflt}: page faults served without and with I/O
 * @see <a href="https://man7.org/linux/man-pages/man2/getrusage.2.html">getrusage(2)</a>
 */
public record ResourceUsage(long userMicros, long systemMicros, long voluntaryContextSwitches,
                            long involuntaryContextSwitches, long pageFaults) {

    public static final ResourceUsage ZERO = new ResourceUsage(0, 0, 0, 0, 0);

    /** CPU time and context switches without page faults (counted as none). */
    public ResourceUsage(long userMicros, long systemMicros, long voluntaryContextSwitches,
                         long involuntaryContextSwitches) {
        this(userMicros, systemMicros, voluntaryContextSwitches, involuntaryContextSwitches, 0);
    }

    /** All threads of this process, dead ones included ({@code RUSAGE_SELF}). */
    public static ResourceUsage self() {
        return Rusage.read(Rusage.RUSAGE_SELF);
    }

    /**
     * Every child of this process that has terminated and been waited for, and their waited-for descendants
     * ({@code RUSAGE_CHILDREN}). A child counts only once reaped: {@link Process#waitFor()} has returned.
     */
    public static ResourceUsage children() {
        return Rusage.read(Rusage.RUSAGE_CHILDREN);
    }

    /** The calling thread only ({@code RUSAGE_THREAD}, Linux). */
    public static ResourceUsage currentThread() {
        return Rusage.read(Rusage.RUSAGE_THREAD);
    }

    /** {@code this − earlier}, field by field. */
    public ResourceUsage minus(ResourceUsage earlier) {
        return new ResourceUsage(userMicros - earlier.userMicros, systemMicros - earlier.systemMicros,
                voluntaryContextSwitches - earlier.voluntaryContextSwitches,
                involuntaryContextSwitches - earlier.involuntaryContextSwitches, pageFaults - earlier.pageFaults);
    }

    /** {@code this + other}, field by field. */
    public ResourceUsage plus(ResourceUsage other) {
        return new ResourceUsage(userMicros + other.userMicros, systemMicros + other.systemMicros,
                voluntaryContextSwitches + other.voluntaryContextSwitches,
                involuntaryContextSwitches + other.involuntaryContextSwitches, pageFaults + other.pageFaults);
    }

    /** The same counts with the CPU time split into {@code userMicros} and {@code systemMicros} instead. */
    public ResourceUsage withCpuSplit(long user, long system) {
        return new ResourceUsage(user, system, voluntaryContextSwitches, involuntaryContextSwitches, pageFaults);
    }

    /** User plus system CPU time in microseconds. */
    public long cpuMicros() {
        return userMicros + systemMicros;
    }

    /** Voluntary plus involuntary context switches. */
    public long contextSwitches() {
        return voluntaryContextSwitches + involuntaryContextSwitches;
    }
}
