package io.perflab.runner.metering;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Optional;
import java.util.Set;

/**
 * CPU time and context switches of this JVM's JIT compiler threads, read from {@code /proc/self/task} (Linux).
 *
 * <p>{@code getrusage(RUSAGE_SELF)} counts every thread of the process, and the JIT's compiler threads are among
 * them. On a small machine they keep compiling long after a benchmark's throughput looks flat: on 2 vCPUs, the C2
 * compiler thread spends about 5 s of CPU in the first 10 s of an rpc-bench trial and still 0.1 s per second
 * after that — a third of the user CPU a 3 s window measures. That CPU belongs to the JVM warming itself up, not
 * to the code under test, and how much of it lands in a window varies from trial to trial; a meter that
 * subtracts it measures the code under test, and reports the JIT's share on its own.
 *
 * <p>Per thread: the time on CPU from {@code schedstat} (nanoseconds, exact), {@code stat}'s {@code utime} and
 * {@code stime} ticks (10 ms granules) to split it into user and system time, its page faults ({@code minflt} and
 * {@code majflt}), and the context switches from {@code status}. A window adds up each thread's own difference
 * ({@link Reading#since}): a compiler thread that ends during a window takes its counts along, and only what it
 * used from the last reading that listed it to its end is charged to the rest of the process (its files went with
 * it), not the other compiler threads' share. Trial JVMs run with
 * {@code -XX:-UseDynamicNumberOfCompilerThreads}, so that none ends; {@code perflab bench} and JVM flags chosen by
 * an operator may not.
 *
 * <p>The files are read as bytes ({@code ISO-8859-1}): the kernel cuts a name at 15 bytes, which can split a
 * character of a UTF-8 name in two, and such a name must not make its thread look ended.
 */
public final class CompilerThreads {

    private static final Path TASKS = Path.of("/proc/self/task");
    /** Thread names as the kernel keeps them (15 characters): "C2 CompilerThre", "C1 CompilerThre", "JVMCI …". */
    private static final List<String> NAME_PREFIXES = List.of("C1 Compiler", "C2 Compiler", "JVMCI Compiler",
            "JVMCI-native C");

    private CompilerThreads() {
    }

    /** Whether a thread of this name ({@code /proc/…/task/…/comm}) is a JIT compiler thread. */
    public static boolean isCompilerThread(String name) {
        return NAME_PREFIXES.stream().anyMatch(name::startsWith);
    }

    /**
     * The threads of this process but its JIT compiler threads, those started later included
     * ({@link WorkloadFilter}).
     */
    static SampleFilter workloadFilter() {
        return new WorkloadFilter(ProcessHandle.current().pid(), TASKS, WorkloadFilter.compilerThreadsComeAndGo());
    }

    /**
     * The ids of the threads under {@code tasks} that are JIT compiler threads ({@code compilers}) or that are not;
     * empty where the directory cannot be read. A thread that ends while being listed is left out.
     */
    static Optional<List<Integer>> threadIds(Path tasks, boolean compilers) {
        List<Integer> ids = new ArrayList<>();
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                Optional<String> name = name(thread); // empty for a thread that ended: it belongs to no window
                if (name.isPresent() && isCompilerThread(name.get()) == compilers) {
                    ids.add(Integer.parseInt(thread.getFileName().toString()));
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
        return Optional.of(ids);
    }

    /**
     * Reads the compiler threads' counters again and again, as a meter does at every step of a warmup and at both
     * ends of every window. Each thread's name is read once, the first time its id is listed, so a reading lists
     * {@code /proc/self/task} and reads the compiler threads' own files rather than every thread's name as well: a
     * trial JVM has some sixty threads, and reading all their names at each one-second step made this code hot
     * enough for C2 to spend 1.0–1.5 s of CPU compiling it 35–45 s into a warmup (docs/PERFORMANCE.md, "A warmup
     * that ends when the compiler is quiet"). An id no longer listed is forgotten, so a reused id is named afresh.
     * Naming once is safe: a new thread carries its creator's name until it sets its own, and a compiler thread is
     * created either at the JVM's start, before any reader, or by another compiler thread.
     */
    public static final class Reader {

        private final Path tasks;
        /** Whether the thread of each id listed last time is a compiler thread. */
        private final Map<String, Boolean> compilerById = new HashMap<>();

        /** A reader of this JVM's threads; {@link #read()} on a new one names every thread. */
        public Reader() {
            this(TASKS);
        }

        Reader(Path tasks) {
            this.tasks = tasks;
        }

        /** Each compiler thread's cumulative counters; empty where the directory cannot be read. */
        public synchronized Optional<Reading> read() {
            Map<Integer, Counters> perThread = new TreeMap<>();
            Set<String> listed = new HashSet<>();
            try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
                for (Path thread : threads) {
                    String id = thread.getFileName().toString();
                    listed.add(id);
                    Boolean compiler = compilerById.get(id);
                    if (compiler == null) {
                        Optional<String> name = name(thread);
                        if (name.isEmpty()) {
                            continue; // ended while being listed
                        }
                        compiler = isCompilerThread(name.get());
                        compilerById.put(id, compiler);
                    }
                    if (compiler) {
                        Optional<Counters> reading = counters(thread);
                        if (reading.isPresent()) {
                            perThread.put(Integer.parseInt(id), reading.get());
                        }
                    }
                }
            } catch (IOException | RuntimeException unreadable) {
                return Optional.empty();
            }
            compilerById.keySet().retainAll(listed);
            return Optional.of(new Reading(true, perThread));
        }
    }

    /**
     * Cumulative counters of compiler threads, each thread's own by thread id: the one source of their sums
     * ({@link #total}) and of what they used between two readings ({@link #since}). A reading of counters that
     * were not read per thread holds them under id 0, which no thread has, and compares only with another such.
     *
     * @param known false for a reading that failed, whose counters are not known
     * @param threads each compiler thread's counters, by thread id
     */
    public record Reading(boolean known, Map<Integer, Counters> threads) {

        /** No compiler thread, or none that could be read. */
        public static final Reading ZERO = new Reading(true, Map.of());
        /** A reading that failed: the compiler threads' counters are not known. */
        public static final Reading UNKNOWN = new Reading(false, Map.of());
        /** The id under which counters not read per thread are kept. */
        private static final int NOT_PER_THREAD = 0;

        public Reading {
            threads = Map.copyOf(threads);
        }

        /** A reading of counters not read per thread: {@link Counters}. */
        public Reading(long cpuNanos, long userTicks, long systemTicks, long voluntarySwitches,
                       long involuntarySwitches, long pageFaults) {
            this(true, Map.of(NOT_PER_THREAD, new Counters(cpuNanos, userTicks, systemTicks, voluntarySwitches,
                    involuntarySwitches, pageFaults)));
        }

        /** As {@link #Reading(long, long, long, long, long, long)}, without page faults (counted as none). */
        public Reading(long cpuNanos, long userTicks, long systemTicks, long voluntarySwitches,
                       long involuntarySwitches) {
            this(cpuNanos, userTicks, systemTicks, voluntarySwitches, involuntarySwitches, 0);
        }

        /** A reading of each thread's counters, given as the {@link #total} of a reading per thread. */
        static Reading ofThreads(Map<Integer, Reading> perThread) {
            Map<Integer, Counters> counters = new TreeMap<>();
            perThread.forEach((id, thread) -> counters.put(id, thread.sum()));
            return new Reading(true, counters);
        }

        /** The threads' counters summed, as a reading of counters not read per thread. */
        public Reading total() {
            return new Reading(known, Map.of(NOT_PER_THREAD, sum()));
        }

        private Counters sum() {
            Counters sum = Counters.NONE;
            for (Counters thread : threads.values()) {
                sum = sum.plus(thread);
            }
            return sum;
        }

        /**
         * What the compiler threads used since {@code earlier}: the exact CPU time, split into user and system
         * time in the ratio of the ticks counted in between (all user time when no tick fell in between: compiler
         * threads spend nearly all their time in user mode).
         *
         * <p>Each thread's difference is added up. A thread that is in this reading only started in between and
         * counts from zero, as does one whose id was reused: every counter of a thread only grows, so an id whose
         * counters are not all at or above the earlier reading's is a new thread's. No thread adds less than
         * nothing. A thread that is in the earlier reading only ended in between: what it used from that reading
         * to its end is not known (its {@code /proc} files went with it) and is left out, to be charged with the
         * rest of the process; the JVM ends a compiler thread only after it has been idle a while, so that is
         * little unless the readings are far apart. Nothing when either reading is {@link #UNKNOWN}.
         */
        public ResourceUsage since(Reading earlier) {
            if (!known || !earlier.known) {
                return ResourceUsage.ZERO;
            }
            Counters delta = Counters.NONE;
            for (Map.Entry<Integer, Counters> thread : threads.entrySet()) {
                Counters now = thread.getValue();
                Counters before = earlier.threads.get(thread.getKey());
                delta = delta.plus(before == null || !now.atLeast(before) ? now : now.minus(before));
            }
            long cpu = delta.cpuNanos();
            long user = delta.userTicks();
            long system = delta.systemTicks();
            long userNanos = user + system == 0 ? cpu : Math.round((double) cpu * user / (user + system));
            return new ResourceUsage(userNanos / 1000, (cpu - userNanos) / 1000, delta.voluntarySwitches(),
                    delta.involuntarySwitches(), delta.pageFaults());
        }
    }

    /**
     * A compiler thread's cumulative counters, or several threads' summed.
     *
     * @param cpuNanos time on CPU ({@code schedstat}), exact
     * @param userTicks user time in clock ticks ({@code stat} field 14)
     * @param systemTicks system time in clock ticks ({@code stat} field 15)
     * @param voluntarySwitches voluntary context switches
     * @param involuntarySwitches involuntary context switches
     * @param pageFaults minor and major page faults ({@code stat} fields 10 and 12)
     */
    public record Counters(long cpuNanos, long userTicks, long systemTicks, long voluntarySwitches,
                           long involuntarySwitches, long pageFaults) {

        static final Counters NONE = new Counters(0, 0, 0, 0, 0, 0);

        Counters plus(Counters other) {
            return new Counters(cpuNanos + other.cpuNanos, userTicks + other.userTicks,
                    systemTicks + other.systemTicks, voluntarySwitches + other.voluntarySwitches,
                    involuntarySwitches + other.involuntarySwitches, pageFaults + other.pageFaults);
        }

        Counters minus(Counters earlier) {
            return new Counters(cpuNanos - earlier.cpuNanos, userTicks - earlier.userTicks,
                    systemTicks - earlier.systemTicks, voluntarySwitches - earlier.voluntarySwitches,
                    involuntarySwitches - earlier.involuntarySwitches, pageFaults - earlier.pageFaults);
        }

        /** Whether every counter is at or above {@code earlier}'s, as a later reading of the same thread's is. */
        boolean atLeast(Counters earlier) {
            return cpuNanos >= earlier.cpuNanos && userTicks >= earlier.userTicks
                    && systemTicks >= earlier.systemTicks && voluntarySwitches >= earlier.voluntarySwitches
                    && involuntarySwitches >= earlier.involuntarySwitches && pageFaults >= earlier.pageFaults;
        }
    }

    /** A thread's name as the kernel keeps it, or empty for a thread that ended. */
    static Optional<String> name(Path thread) {
        try {
            return Optional.of(read(thread.resolve("comm")).strip());
        } catch (IOException ended) {
            return Optional.empty();
        }
    }

    /** A compiler thread's counters, or empty for one that ended while being read. */
    private static Optional<Counters> counters(Path thread) {
        try {
            String schedstat = read(thread.resolve("schedstat")).strip();
            long cpuNanos = Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
            String stat = read(thread.resolve("stat"));
            // fields after the parenthesised name, which may itself hold spaces: state is field 3, utime 14
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long pageFaults = Long.parseLong(f[7]) + Long.parseLong(f[9]);
            long userTicks = Long.parseLong(f[11]);
            long systemTicks = Long.parseLong(f[12]);
            long voluntary = 0;
            long involuntary = 0;
            for (String line : read(thread.resolve("status")).split("\n")) {
                if (line.startsWith("voluntary_ctxt_switches:")) {
                    voluntary = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
                } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                    involuntary = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
                }
            }
            return Optional.of(new Counters(cpuNanos, userTicks, systemTicks, voluntary, involuntary, pageFaults));
        } catch (IOException ended) {
            return Optional.empty();
        }
    }

    /** A file of {@code /proc} as bytes, one character each: a name cut inside a UTF-8 character reads as well. */
    private static String read(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    }
}
