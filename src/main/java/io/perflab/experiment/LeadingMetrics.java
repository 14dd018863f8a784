package io.perflab.experiment;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Which of a benchmark tool's metrics a page leads with when PerfLab's own headline metrics are absent (uploads,
 * command experiments): the ones that measure time or throughput — Go's {@code ns/op}, a JMH score, hyperfine's
 * mean — before memory and counts ({@code B/op}, {@code allocs/op}), which sorted first by name.
 */
public final class LeadingMetrics {

    private static final Set<String> TIME_NAMES = Set.of("ns/op", "us/op", "µs/op", "ms/op", "s/op", "time",
            "real_time", "cpu_time", "mean", "median", "score", "ops/s", "ops/ms", "ops/us");
    private static final Set<String> TIME_UNITS = Set.of("ns", "us", "µs", "ms", "s", "ns/op", "us/op", "µs/op",
            "ms/op", "s/op", "ops/s", "ops/ms", "ops/us", "op/s", "ns/iter");

    private LeadingMetrics() {
    }

    /** Whether a metric measures time or throughput, by the last part of its key ({@code Join:ns/op}) or its unit. */
    public static boolean measuresTime(String key, String unit) {
        String name = key.substring(key.lastIndexOf(':') + 1).toLowerCase(Locale.ROOT);
        return TIME_NAMES.contains(name) || unit != null && TIME_UNITS.contains(unit.toLowerCase(Locale.ROOT));
    }

    /** {@code items} with those that measure time first, each group in its given order. */
    public static <T> List<T> timeFirst(List<T> items, Function<T, String> key, Function<T, String> unit) {
        return items.stream().sorted(Comparator.comparing(item -> !measuresTime(key.apply(item), unit.apply(item))))
                .toList();
    }
}
