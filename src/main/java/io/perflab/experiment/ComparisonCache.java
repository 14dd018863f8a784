package io.perflab.experiment;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;

/**
 * The computed comparisons of recently used experiments, kept while they hold at most {@code maxComparisons} metric
 * comparisons in all; the least recently used experiments are forgotten first. A bound on comparisons rather than
 * on experiments, because one upload may hold 3,000 metrics (about 1.5 MB of comparisons, measured) where an engine
 * experiment holds a dozen; without a bound a service that keeps every upload's results runs out of memory.
 */
final class ComparisonCache {

    private record Entry(int dataVersion, List<MetricComparison> comparisons) {

        long weight() {
            return Math.max(1, comparisons.size());
        }
    }

    private final long maxComparisons;
    /** In access order: the first is the least recently used. */
    private final LinkedHashMap<Long, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long held;

    ComparisonCache(long maxComparisons) {
        if (maxComparisons < 1) {
            throw new IllegalArgumentException("maxComparisons must be ≥ 1, got " + maxComparisons);
        }
        this.maxComparisons = maxComparisons;
    }

    /** The comparisons of experiment {@code id} as computed at {@code dataVersion}, if they are kept. */
    synchronized Optional<List<MetricComparison>> get(long id, int dataVersion) {
        Entry entry = entries.get(id);
        return entry != null && entry.dataVersion() == dataVersion ? Optional.of(entry.comparisons())
                : Optional.empty();
    }

    /** Keeps the comparisons (unless they alone exceed the bound), forgetting the least recently used to fit. */
    synchronized void put(long id, int dataVersion, List<MetricComparison> comparisons) {
        remove(id);
        Entry entry = new Entry(dataVersion, comparisons);
        if (entry.weight() > maxComparisons) {
            return;
        }
        entries.put(id, entry);
        held += entry.weight();
        Iterator<Entry> eldest = entries.values().iterator();
        while (held > maxComparisons) {
            held -= eldest.next().weight();
            eldest.remove();
        }
    }

    synchronized void remove(long id) {
        Entry removed = entries.remove(id);
        if (removed != null) {
            held -= removed.weight();
        }
    }

    /** How many comparisons are kept, in all experiments. */
    synchronized long comparisons() {
        return held;
    }
}
