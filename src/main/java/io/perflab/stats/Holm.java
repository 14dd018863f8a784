package io.perflab.stats;

import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Holm's step-down adjustment of p-values for the metrics of one experiment, as R's
 * {@code p.adjust(p, "holm")}: with p₍₁₎ ≤ … ≤ p₍ₘ₎, p̃₍ᵢ₎ = max<sub>j≤i</sub> min(1, (m − j + 1)·p₍ⱼ₎).
 * Controls the family-wise error rate at α under any dependence between the metrics.
 *
 * @see <a href="https://www.jstor.org/stable/4615733">S. Holm (1979), A simple sequentially rejective multiple
 *     test procedure, Scand. J. Statist. 6(2)</a>
 */
public final class Holm {

    private Holm() {
    }

    /** The adjusted p-values, in the order of {@code p}. */
    public static double[] adjust(double[] p) {
        int m = p.length;
        for (int i = 0; i < m; i++) {
            if (!(p[i] >= 0 && p[i] <= 1)) {
                throw new IllegalArgumentException("p-value " + (i + 1) + " is " + p[i] + ": must be in [0, 1]");
            }
        }
        Integer[] order = IntStream.range(0, m).boxed().sorted(Comparator.comparingDouble(i -> p[i]))
                .toArray(Integer[]::new);
        double[] adjusted = new double[m];
        double running = 0;
        for (int i = 0; i < m; i++) {
            running = Math.max(running, (m - i) * p[order[i]]);
            adjusted[order[i]] = Math.min(1, running);
        }
        return adjusted;
    }
}
