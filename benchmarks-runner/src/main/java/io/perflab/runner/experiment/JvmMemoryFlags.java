package io.perflab.runner.experiment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the flags of one trial JVM ask of its host's memory, as the JVM takes them. A trial JVM's command line holds
 * its host's fixed flags, then its variant's own; the JVM takes the last of a flag given twice, so a variant's
 * {@code -Xmx1g} replaces a fixed {@code -Xmx6g} ({@code -XX:MaxHeapSize=} is the same flag, as {@code -Xms} is
 * {@code -XX:InitialHeapSize=}), whereas a variant's {@code -XX:MaxDirectMemorySize=5g} adds to a fixed heap. The
 * memory asked is the largest heap size (or share of the host's memory) plus the direct memory, code cache and
 * metaspace sizes, each the largest its flags give.
 */
public final class JvmMemoryFlags {

    private static final String SIZE = "[0-9]{1,12}[kKmMgGtT]?";
    private static final String SHARE = "[0-9]{1,6}(?:\\.[0-9]{1,3})?";

    private static final Pattern HEAP = Pattern.compile(
            "-Xm[sxn](" + SIZE + ")|-XX:(?:MaxHeapSize|InitialHeapSize|MinHeapSize|NewSize|MaxNewSize|SoftMaxHeapSize)"
                    + "=(" + SIZE + ")");
    private static final Pattern HEAP_SHARE = Pattern.compile("-XX:(?:Max|Initial|Min)RAMPercentage=(" + SHARE + ")");
    private static final Pattern DIRECT = Pattern.compile("-XX:MaxDirectMemorySize=(" + SIZE + ")");
    private static final Pattern CODE = Pattern.compile("-XX:(?:Reserved|Initial)CodeCacheSize=(" + SIZE + ")");
    private static final Pattern METASPACE = Pattern.compile("-XX:(?:Max)?MetaspaceSize=(" + SIZE + ")");

    /** The flag {@code -X} forms name, as {@code -XX:} names it. */
    private static final Pattern SHORT_FORM = Pattern.compile("-X(mx|ms|mn|ss).*");

    private JvmMemoryFlags() {
    }

    /**
     * What flags ask of the memory: {@code bytes} in all, of which {@code flags} are the flags counted (the largest
     * of each kind), in the order of the kinds (heap, direct memory, code cache, metaspace).
     */
    public record Ask(long bytes, List<String> flags) {

        public Ask {
            flags = List.copyOf(flags);
        }
    }

    /**
     * {@code commandLine} as the JVM takes it: each flag that a later one gives again left out, so that the last of
     * them is the one left, where it stood. A flag is given again by one that sets the same JVM option, whatever its
     * value or spelling: {@code -Xmx} and {@code -XX:MaxHeapSize=}, {@code -XX:+Name} and {@code -XX:-Name},
     * {@code -Dname=}. A null flag (none any JVM takes) is left out.
     */
    public static List<String> asTheJvmTakes(List<String> commandLine) {
        Set<String> later = new HashSet<>();
        List<String> kept = new ArrayList<>();
        for (int i = commandLine.size() - 1; i >= 0; i--) {
            String flag = commandLine.get(i);
            if (flag != null && later.add(option(flag))) {
                kept.add(flag);
            }
        }
        Collections.reverse(kept);
        return kept;
    }

    /** The JVM option {@code flag} sets, the same for every spelling and value of it. */
    static String option(String flag) {
        Matcher shortForm = SHORT_FORM.matcher(flag);
        if (shortForm.matches()) {
            return switch (shortForm.group(1)) {
                case "mx" -> "MaxHeapSize";
                case "ms" -> "InitialHeapSize";
                case "ss" -> "ThreadStackSize";
                default -> "-Xmn";
            };
        }
        if (flag.startsWith("-XX:")) {
            String name = flag.substring(4);
            if (name.startsWith("+") || name.startsWith("-")) {
                return name.substring(1);
            }
            int equals = name.indexOf('=');
            return equals < 0 ? name : name.substring(0, equals);
        }
        if (flag.startsWith("-D")) {
            int equals = flag.indexOf('=');
            return equals < 0 ? flag : flag.substring(0, equals);
        }
        return flag;
    }

    /**
     * Whether {@code flag} sizes what {@link #of} counts: the heap (a size, or a share of the host), direct memory,
     * code cache or metaspace.
     */
    public static boolean sizesMemory(String flag) {
        return flag != null && List.of(HEAP, HEAP_SHARE, DIRECT, CODE, METASPACE).stream()
                .anyMatch(kind -> kind.matcher(flag).matches());
    }

    /**
     * What the flags of one JVM, as it takes them ({@link #asTheJvmTakes}), ask of the memory of a host of
     * {@code hostMemoryBytes}: the largest heap size (a share of the host counts as that much of it), direct memory,
     * code cache and metaspace added up. Flags that set none of these ask nothing (the JVM's defaults are fractions of
     * the host); a sum beyond a long is {@link Long#MAX_VALUE}.
     */
    public static Ask of(List<String> flags, long hostMemoryBytes) {
        List<String> taken = asTheJvmTakes(flags);
        List<String> counted = new ArrayList<>();
        long total = 0;
        for (Pattern kind : List.of(HEAP, DIRECT, CODE, METASPACE)) {
            String largest = null;
            long size = 0;
            for (String flag : taken) {
                long bytes = kind == HEAP ? heapBytes(flag, hostMemoryBytes) : bytes(kind, flag);
                if (bytes > size) {
                    size = bytes;
                    largest = flag;
                }
            }
            if (largest != null) {
                counted.add(largest);
                total = total > Long.MAX_VALUE - size ? Long.MAX_VALUE : total + size;
            }
        }
        return new Ask(total, counted);
    }

    private static long heapBytes(String flag, long hostMemoryBytes) {
        Matcher share = HEAP_SHARE.matcher(flag);
        if (share.matches()) {
            return (long) Math.min(Long.MAX_VALUE, Double.parseDouble(share.group(1)) / 100 * hostMemoryBytes);
        }
        return bytes(HEAP, flag);
    }

    /** The size {@code flag} gives if it is one of {@code kind}'s, else 0. */
    private static long bytes(Pattern kind, String flag) {
        Matcher m = kind.matcher(flag);
        if (!m.matches()) {
            return 0;
        }
        String size = m.group(1) != null ? m.group(1) : m.group(2);
        char unit = Character.toLowerCase(size.charAt(size.length() - 1));
        int shift = switch (unit) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            case 't' -> 40;
            default -> 0;
        };
        long number = Long.parseLong(shift == 0 ? size : size.substring(0, size.length() - 1));
        return number > (Long.MAX_VALUE >> shift) ? Long.MAX_VALUE : number << shift;
    }
}
