package io.perflab.runner.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The fields of {@code /proc/<pid>/stat} that {@link ProcessTag} uses: {@code pid (comm) state ppid pgrp session
 * tty tpgid flags … starttime …}. The name may hold spaces and parentheses, so the fields are counted from its last
 * {@code )}.
 *
 * @param flags the kernel's {@code PF_*} flags
 * @param startTicks when the process started, in clock ticks since boot
 */
record ProcessStat(long pid, String name, char state, long flags, long startTicks) {

    private static final long PF_KTHREAD = 0x00200000;

    /** Whether the process still runs: not a zombie ({@code Z}) nor dead ({@code X}, {@code x}). */
    boolean alive() {
        return state != 'Z' && state != 'X' && state != 'x';
    }

    /** A kernel thread has no environment, ever. */
    boolean kernelThread() {
        return (flags & PF_KTHREAD) != 0;
    }

    static Optional<ProcessStat> read(Path directory, long pid) {
        try {
            return parse(pid, Files.readString(directory.resolve("stat"), StandardCharsets.ISO_8859_1));
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty(); // gone meanwhile
        }
    }

    static Optional<ProcessStat> parse(long pid, String stat) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            return Optional.empty();
        }
        String[] fields = stat.substring(close + 1).strip().split(" ");
        if (fields.length < 20 || fields[0].length() != 1) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ProcessStat(pid, stat.substring(open + 1, close), fields[0].charAt(0),
                    Long.parseLong(fields[6]), Long.parseLong(fields[19])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
