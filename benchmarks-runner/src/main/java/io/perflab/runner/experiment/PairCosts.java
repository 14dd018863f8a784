package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What the pairs of a paired design cost in wall time, as Kalibera and Jones's optimal windows per pair needs it: a
 * pair costs c₁ before its first window (JVM start and warmup) and c₂ per window of each variant. Every window result
 * carries its pair's setup ({@value #SETUP}) and its share of the pair's measuring time ({@value #SHARE}: in a duet
 * half the window's wall time, each variant's window taking place at once; alternating, the whole slot; either way
 * with the attempts measured again included), so that the costs can be read back from stored results alone.
 *
 * @param pairSeconds c₁, the mean setup of the pairs
 * @param windowSeconds c₂, the mean over the pairs of their measuring time per window of each variant
 */
public record PairCosts(double pairSeconds, double windowSeconds) {

    /** Environment key: the pair's setup, seconds from starting its JVMs to both warmed up. */
    public static final String SETUP = "pair_setup_seconds";
    /** Environment key: this result's share of its pair's measuring time, seconds. */
    public static final String SHARE = "measuring_share_seconds";

    static void record(Map<String, String> environment, Duration setup, Duration share) {
        environment.put(SETUP, String.format(Locale.ROOT, "%.3f", setup.toNanos() / 1e9));
        environment.put(SHARE, String.format(Locale.ROOT, "%.3f", share.toNanos() / 1e9));
    }

    /**
     * The costs of the pairs whose successful window results are {@code results}, or empty when they do not carry
     * them (a file written before they did, a command experiment's zero setup).
     *
     * @param windowsPerPair M, the windows of each variant per pair
     */
    public static java.util.Optional<PairCosts> of(List<TrialResult> results, int windowsPerPair) {
        Map<Integer, double[]> byPair = new java.util.TreeMap<>();
        for (TrialResult r : results) {
            if (!r.ok() || r.pair() == null || r.pair().window() == null) {
                continue;
            }
            OptionalDouble setup = seconds(r.environment().get(SETUP));
            OptionalDouble share = seconds(r.environment().get(SHARE));
            if (setup.isEmpty() || share.isEmpty()) {
                continue;
            }
            double[] pair = byPair.computeIfAbsent(r.pair().index(), k -> new double[2]);
            pair[0] = setup.getAsDouble();
            pair[1] += share.getAsDouble();
        }
        List<double[]> pairs = new ArrayList<>(byPair.values());
        double setup = pairs.stream().mapToDouble(p -> p[0]).average().orElse(0);
        double window = pairs.stream().mapToDouble(p -> p[1]).average().orElse(0) / windowsPerPair;
        return setup > 0 && window > 0 ? java.util.Optional.of(new PairCosts(setup, window))
                : java.util.Optional.empty();
    }

    private static OptionalDouble seconds(String text) {
        try {
            return text == null ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(text));
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }
}
