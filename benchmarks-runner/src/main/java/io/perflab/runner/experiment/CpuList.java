package io.perflab.runner.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A list of CPUs as {@code taskset -c} and {@code /proc/self/status} write it ({@code 0-3,6}), and the two halves a
 * duet pins its JVMs to.
 *
 * @param cpus the CPU numbers, ascending
 */
record CpuList(List<Integer> cpus) {

    private static final Path STATUS = Path.of("/proc/self/status");

    CpuList {
        cpus = List.copyOf(new TreeSet<>(cpus));
    }

    /** The highest CPU number a list may name: Linux builds for at most 8,192 CPUs. */
    static final int MAX_CPU = 8191;

    /**
     * Parses {@code 1}, {@code 0-3}, {@code 0,2,4-5}, of CPUs 0 to {@value #MAX_CPU}.
     *
     * @throws IllegalArgumentException for anything else
     */
    static CpuList parse(String text) {
        List<Integer> cpus = new ArrayList<>();
        try {
            for (String part : text.strip().split(",")) {
                int dash = part.indexOf('-');
                int from = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).strip());
                int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1).strip());
                if (from < 0 || to < from || to > MAX_CPU) {
                    throw new NumberFormatException();
                }
                for (int cpu = from; cpu <= to; cpu++) {
                    cpus.add(cpu);
                }
            }
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("not a CPU list such as 1 or 0-3 or 0,2 (CPUs 0 to " + MAX_CPU
                    + "): '" + text + "'");
        }
        return new CpuList(cpus);
    }

    /**
     * The CPUs trial JVMs may use: {@code pinned} if given, else those this process may run on
     * ({@code Cpus_allowed_list}), else 0 to {@code availableProcessors − 1}.
     */
    static CpuList available(Optional<String> pinned) {
        if (pinned.isPresent()) {
            return parse(pinned.get());
        }
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parse(line.substring(line.indexOf(':') + 1));
                }
            }
        } catch (IOException | IllegalArgumentException notLinux) {
            // fall through to the processor count
        }
        List<Integer> all = new ArrayList<>();
        for (int cpu = 0; cpu < Runtime.getRuntime().availableProcessors(); cpu++) {
            all.add(cpu);
        }
        return new CpuList(all);
    }

    /** The lower half (the smaller one for an odd count) and the upper half. */
    List<CpuList> halves() {
        if (cpus.size() < 2) {
            throw new IllegalArgumentException("the duet design gives each JVM of a pair its own half of the CPUs "
                    + "and needs at least 2, but trial JVMs may use " + cpus.size() + " (" + this + "): use "
                    + "--design alternating");
        }
        int half = cpus.size() / 2;
        return List.of(new CpuList(cpus.subList(0, half)), new CpuList(cpus.subList(half, cpus.size())));
    }

    /** The list as {@code taskset -c} takes it, ranges folded: {@code 0-3,6}. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        int i = 0;
        while (i < cpus.size()) {
            int j = i;
            while (j + 1 < cpus.size() && cpus.get(j + 1) == cpus.get(j) + 1) {
                j++;
            }
            s.append(s.length() == 0 ? "" : ",").append(cpus.get(i));
            if (j > i) {
                s.append('-').append(cpus.get(j));
            }
            i = j + 1;
        }
        return s.toString();
    }
}
