package io.perflab.paired;

import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.PairPosition;
import io.perflab.stats.Summary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * How the windows of a paired experiment were placed and timed, from its trial records: in a duet, how far apart the
 * two JVMs' windows started (the skew each window records) and whether consecutive pairs swapped the CPU halves; in
 * both paired designs, which variant's JVM started (or measured) first in each pair. The design promises these —
 * windows started together, halves and order swapped from pair to pair, so that neither a core nor going first
 * favours a variant — and this is what the records say it did.
 *
 * @param pairs pairs with at least one measured window
 * @param skewedWindows windows whose start was timed against their partner's (duet only)
 * @param skewMedianMs median over those windows of |skew|, milliseconds; null when none
 * @param skewMaxMs the largest |skew|, milliseconds; null when none
 * @param skewedOver50Ms windows that started more than 50 ms apart, the synchronisation the duet aims at
 * @param consecutivePairs pairs i, i + 1 both stored with each JVM on a CPU set of its own (a duet's halves)
 * @param cpuSwaps of those, how many gave {@code with} another CPU set than the pair before
 * @param withFirst pairs in which the {@code with} JVM went first (started first in a duet, measured first when
 *     alternating)
 */
public record PlacementCheck(int pairs, int skewedWindows, Double skewMedianMs, Double skewMaxMs, int skewedOver50Ms,
                            int consecutivePairs, int cpuSwaps, int withFirst) {

    /** One measured window's record: its pair, its variant and where it lay. */
    public record Window(String variant, PairPosition position) {

        public Window {
            Objects.requireNonNull(variant, "variant");
            Objects.requireNonNull(position, "position");
        }
    }

    /** The placement the measured windows {@code windows} record (failed pairs' records carry no window). */
    public static PlacementCheck of(List<Window> windows) {
        Map<Integer, Pair> pairs = new TreeMap<>();
        Map<String, Long> skews = new TreeMap<>();
        for (Window w : windows) {
            PairPosition p = w.position();
            if (p.window() == null) {
                continue;
            }
            Pair pair = pairs.computeIfAbsent(p.index(), i -> new Pair());
            boolean with = VariantName.WITH.label().equals(w.variant());
            if (with) {
                pair.withCpus = pair.withCpus != null ? pair.withCpus : p.cpus();
                pair.withFirst |= p.startedFirst();
            } else {
                pair.withoutCpus = pair.withoutCpus != null ? pair.withoutCpus : p.cpus();
            }
            if (p.skewNanos() != null) {
                skews.merge(p.index() + "/" + p.window(), Math.abs(p.skewNanos()), Math::max);
            }
        }
        double[] skewMs = skews.values().stream().mapToDouble(n -> n / 1e6).toArray();
        int consecutive = 0;
        int swaps = 0;
        List<Integer> indexes = new ArrayList<>(pairs.keySet());
        for (int i = 1; i < indexes.size(); i++) {
            Pair before = pairs.get(indexes.get(i - 1));
            Pair after = pairs.get(indexes.get(i));
            if (indexes.get(i) == indexes.get(i - 1) + 1 && before.halves() && after.halves()) {
                consecutive++;
                swaps += before.withCpus.equals(after.withCpus) ? 0 : 1;
            }
        }
        int withFirst = (int) pairs.values().stream().filter(p -> p.withFirst).count();
        int over50 = (int) Arrays.stream(skewMs).filter(ms -> ms > 50).count();
        Summary skew = skewMs.length == 0 ? null : Summary.of(skewMs, "skew");
        return new PlacementCheck(pairs.size(), skewMs.length, skew == null ? null : skew.median(),
                skew == null ? null : skew.max(), over50, consecutive, swaps, withFirst);
    }

    /**
     * What the records say, as a sentence: e.g. "The two JVMs' windows started 0.41 ms apart (median; at most
     * 2.30 ms over 24 windows); the CPU halves swapped between 7 of 7 consecutive pairs; 'with' went first in 4
     * of 8 pairs." Empty when no pair was measured.
     */
    public String describe() {
        if (pairs == 0) {
            return "";
        }
        StringBuilder s = new StringBuilder();
        if (skewedWindows > 0) {
            s.append("The two JVMs' windows started ").append(milliseconds(skewMedianMs))
                    .append(" apart (median; at most ").append(milliseconds(skewMaxMs)).append(" over ")
                    .append(skewedWindows).append(skewedWindows == 1 ? " window" : " windows")
                    .append(skewedOver50Ms > 0 ? ", " + skewedOver50Ms + " more than 50 ms apart" : "").append("); ");
        }
        if (consecutivePairs > 0) {
            s.append("the CPU halves swapped between ").append(cpuSwaps).append(" of ").append(consecutivePairs)
                    .append(" consecutive pairs; ");
        }
        s.append("'with' went first in ").append(withFirst).append(" of ").append(pairs)
                .append(pairs == 1 ? " pair." : " pairs.");
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String milliseconds(double ms) {
        if (ms < 0.1) {
            return String.format(Locale.ROOT, "%.0f µs", ms * 1000);
        }
        return String.format(Locale.ROOT, ms < 10 ? "%.2f ms" : "%.0f ms", ms);
    }

    /** What one pair's records say. */
    private static final class Pair {
        String withCpus;
        String withoutCpus;
        boolean withFirst;

        /** Whether its two JVMs ran on CPU sets of their own (a duet's halves), not on the same ones. */
        boolean halves() {
            return withCpus != null && withoutCpus != null && !withCpus.equals(withoutCpus);
        }
    }
}
