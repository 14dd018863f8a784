package io.perflab.runner.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A mark in a command trial's environment, {@value #VARIABLE}, that finds every process the trial started: each
 * one inherits it, and {@code /proc/<pid>/environ} shows it whatever became of the process's parent. A background
 * job still running when the shell exits, a process that detached itself and was re-parented to init (which
 * {@link ProcessHandle#descendants()} no longer finds), a daemon that left the shell's session — all carry it, so
 * when a trial ends, the processes still alive that carry its tag are what the command left behind. Only the
 * environments of processes started since the tag was made are read, and a process is killed only while its pid
 * is still that of the process listed (the same start time), never another one that took the pid since.
 *
 * <p>A tag costs the measured run nothing. A session of its own ({@code setsid /bin/sh -c …}) would find processes
 * too, but the extra exec of {@code setsid} lands in every trial's CPU figures (about as much again as
 * {@code /bin/sh -c true} costs), and a daemon that calls {@code setsid(2)} leaves it. What a tag misses: a process
 * started with a cleared environment ({@code env -i}), one that overwrote its environment block (as
 * {@code setproctitle} does in some servers), or one of another user (which PerfLab could not kill anyway).
 *
 * <p>Without {@code /proc} (another Unix), nothing is found: leftovers are not killed, and on a timeout or a cancel
 * only the shell's descendants are; this is logged once, and each trial says so under {@value #LEFTOVERS}.
 * What to read ({@link #judge}) and what to kill ({@link #killListed}) are decided apart, to be tested on records.
 */
final class ProcessTag {

    /** The environment variable of a command trial; its value is the trial's tag. */
    static final String VARIABLE = "PERFLAB_TRIAL";

    /** The environment key of a command trial saying what was left running when it ended. */
    static final String LEFTOVERS = "leftover_processes";

    private static final Logger log = LoggerFactory.getLogger(ProcessTag.class);

    private static final Path PROC = Path.of("/proc");
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Random bytes of a tag: its value always has the same length, so the environment's size does not vary. */
    private static final int TAG_BYTES = 16;
    /** At most so many distinct names are listed; the count is always whole. */
    private static final int MAX_NAMES = 5;
    /**
     * How long processes sent SIGKILL are waited for, in steps of {@link #STEP_NANOS} (5 s): nothing tells a process
     * that is not their parent when they die, and one in an uninterruptible sleep may take a while.
     */
    private static final int DEATH_STEPS = 1000;
    /** A step of the waits: each rereads {@code /proc}, so it is not a spin beside a measurement. */
    private static final long STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /**
     * How long a listing that found nothing is repeated while a process started since the trial began shows no
     * environment (one in the middle of an {@code execve}), in steps: a process that cleared its environment looks
     * the same forever (200 ms).
     */
    private static final int EXEC_STEPS = 40;
    /** Clock ticks per second in {@code /proc}: {@code USER_HZ}, 100 on every Linux architecture PerfLab runs on. */
    private static final long TICKS_PER_SECOND = 100;
    /** Rounds of listing and killing at most: each kills what the ones before it had not found. */
    private static final int MAX_ROUNDS = 100;

    private final String value;
    /** {@code \0}{@value #VARIABLE}{@code =value\0}, as {@link #contains} finds it in an environment block. */
    private final byte[] entry;
    /**
     * When the tag was made, in clock ticks since boot (a tick early); no process carrying it started before, so the
     * environments of processes started before are not read.
     */
    private final long startTicks;

    ProcessTag(String value, long startTicks) {
        this.value = value;
        this.entry = ("\0" + VARIABLE + "=" + value + "\0").getBytes(StandardCharsets.ISO_8859_1);
        this.startTicks = startTicks;
    }

    /** Whether processes can be found by their tag: this is Linux, with {@code /proc}. */
    static boolean available() {
        return Availability.AVAILABLE;
    }

    private static final class Availability {
        static final boolean AVAILABLE = Files.isReadable(PROC.resolve("self").resolve("environ"));

        static {
            if (!AVAILABLE) {
                log.warn("There is no /proc/<pid>/environ here to find a command trial's processes by: those a "
                        + "command leaves running are not killed when its trial ends, and on a timeout or a cancel "
                        + "only the shell's descendants are");
            }
        }
    }

    /** A fresh tag, for one trial. */
    static ProcessTag create() {
        byte[] bytes = new byte[TAG_BYTES];
        RANDOM.nextBytes(bytes);
        return new ProcessTag(HexFormat.of().formatHex(bytes), uptimeTicks() - 1);
    }

    /** The time since boot ({@code /proc/uptime}) in clock ticks; 0 if unknown, which makes every process recent. */
    private static long uptimeTicks() {
        try {
            String uptime = Files.readString(PROC.resolve("uptime"), StandardCharsets.ISO_8859_1).strip();
            return (long) (Double.parseDouble(uptime.substring(0, uptime.indexOf(' '))) * TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The value of {@value #VARIABLE} in the trial's environment. */
    String value() {
        return value;
    }

    /**
     * Kills every live process carrying this tag and waits (a few seconds at most) until they are gone, so that the
     * next trial starts on a quiet machine. Listing and killing repeat until a listing after their deaths finds no
     * other: one forked by a tagged process between a listing and its death is killed on the next round.
     *
     * @return the names of the processes killed, in the order found; empty when none was left, or when nothing can
     *     be found ({@link #available()} is false)
     */
    List<String> kill() {
        if (!available()) {
            return List.of();
        }
        // an interrupted trial (a cancel) is cleaned up all the same: with the flag set, every wait would return at
        // once and the loops below would spin
        boolean interrupted = Thread.interrupted();
        try {
            return killAll();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private List<String> killAll() {
        List<ProcessStat> killed = new ArrayList<>();
        int waited = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            // what was killed is gone first, so that this listing finds what it forked before it died
            while (waited < DEATH_STEPS && killed.stream().anyMatch(listed -> stillRunning(listed, read(listed)))) {
                LockSupport.parkNanos(STEP_NANOS);
                waited++;
            }
            Scan scan = scan(killed);
            for (int step = 0; scan.found().isEmpty() && scan.undecided() && step < EXEC_STEPS; step++) {
                LockSupport.parkNanos(STEP_NANOS);
                scan = scan(killed);
            }
            if (scan.found().isEmpty()) {
                break;
            }
            for (ProcessStat process : scan.found()) {
                killed.add(process);
                killListed(process, ProcessHandle.of(process.pid()), () -> read(process),
                        ProcessHandle::destroyForcibly);
            }
        }
        return killed.stream().map(ProcessStat::name).toList();
    }

    /**
     * Has {@code destroy} kill {@code listed} if it still runs, never a process that took its pid since it was listed.
     * {@code handle}, of the pid's process now, is taken before {@code now} rereads the pid's stat: if that still shows
     * the listed start time, the handle is of the listed process, and the JDK's destroy signals it only while its pid
     * has the start time the handle was taken with ({@code ProcessHandleImpl.destroy0} rereads it), so not once the
     * pid is reused either. Returns whether {@code destroy} was asked to.
     */
    static boolean killListed(ProcessStat listed, Optional<ProcessHandle> handle, Supplier<Optional<ProcessStat>> now,
                              Predicate<ProcessHandle> destroy) {
        return handle.isPresent() && stillRunning(listed, now.get()) && destroy.test(handle.get());
    }

    /** Whether {@code now}, a later reading of {@code listed}'s pid, shows that same process, still running. */
    static boolean stillRunning(ProcessStat listed, Optional<ProcessStat> now) {
        return now.filter(stat -> stat.alive() && stat.pid() == listed.pid()
                && stat.startTicks() == listed.startTicks()).isPresent();
    }

    /**
     * What a command trial's environment says under {@link #LEFTOVERS}: {@code 0}, {@code 2 killed: sleep, nc},
     * or that nothing was checked.
     */
    static String describe(List<String> killed) {
        if (!available()) {
            return "not checked: there is no /proc/<pid>/environ to find the command's processes by";
        }
        if (killed.isEmpty()) {
            return "0";
        }
        List<String> names = new ArrayList<>(new LinkedHashSet<>(killed));
        String listed = String.join(", ", names.subList(0, Math.min(names.size(), MAX_NAMES)));
        return killed.size() + " killed: " + listed + (names.size() > MAX_NAMES ? ", …" : "");
    }

    /** A listing of {@code /proc}: the processes {@link Verdict#TAGGED}, and whether one was undecided. */
    private record Scan(List<ProcessStat> found, boolean undecided) {
    }

    /** The live processes carrying this tag, but for those in {@code known}; never this JVM. */
    private Scan scan(Collection<ProcessStat> known) {
        long self = ProcessHandle.current().pid();
        List<ProcessStat> found = new ArrayList<>();
        boolean undecided = false;
        try (Stream<Path> entries = Files.list(PROC)) {
            for (Path directory : (Iterable<Path>) entries::iterator) {
                String name = directory.getFileName().toString();
                if (name.isEmpty() || !name.chars().allMatch(Character::isDigit) || Long.parseLong(name) == self) {
                    continue;
                }
                Optional<ProcessStat> stat = ProcessStat.read(directory, Long.parseLong(name));
                switch (judge(stat, known, () -> environment(directory))) {
                    case TAGGED -> found.add(stat.orElseThrow());
                    case UNDECIDED -> undecided = true;
                    case OTHER -> { }
                }
            }
        } catch (IOException | UncheckedIOException e) {
            log.debug("cannot list {}: {}", PROC, e.getMessage());
        }
        return new Scan(found, undecided);
    }

    /** What a process is to a listing: one carrying the tag, one that may yet show it, or another. */
    enum Verdict { TAGGED, UNDECIDED, OTHER }

    /**
     * What the process whose stat is {@code stat} (empty if it is gone) is to this tag. Its {@code environment} is
     * read only if it runs, is no kernel thread, started since the tag was made and is not {@code known} (killed
     * already): no other process can carry the tag, and the environments of others are not this trial's to read. One
     * that shows no environment at all is undecided: one in the middle of an {@code execve} looks so.
     */
    Verdict judge(Optional<ProcessStat> stat, Collection<ProcessStat> known, Supplier<Optional<byte[]>> environment) {
        if (stat.filter(s -> s.alive() && !s.kernelThread() && s.startTicks() >= startTicks).isEmpty()
                || known.stream().anyMatch(listed -> stillRunning(listed, stat))) {
            return Verdict.OTHER;
        }
        return environment.get().map(block -> contains(block, entry) ? Verdict.TAGGED
                : block.length == 0 ? Verdict.UNDECIDED : Verdict.OTHER).orElse(Verdict.OTHER);
    }

    /** The environment block of the process in {@code directory}; empty if it is gone or another user's. */
    private static Optional<byte[]> environment(Path directory) {
        try {
            return Optional.of(Files.readAllBytes(directory.resolve("environ")));
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether {@code block} ({@code NAME=value\0NAME=value\0…}) holds {@code entry} ({@code \0NAME=value\0}): a
     * NUL before the block's start and after its end count as found, so that its first and last entries match too.
     */
    static boolean contains(byte[] block, byte[] entry) {
        search:
        for (int at = -1; at + entry.length <= block.length + 1; at++) {
            for (int i = 0; i < entry.length; i++) {
                int index = at + i;
                byte b = index < 0 || index >= block.length ? 0 : block[index];
                if (b != entry[i]) {
                    continue search;
                }
            }
            return true;
        }
        return false;
    }

    /** The stat of {@code listed}'s pid now; empty if no process has it. */
    private static Optional<ProcessStat> read(ProcessStat listed) {
        return ProcessStat.read(PROC.resolve(Long.toString(listed.pid())), listed.pid());
    }
}
