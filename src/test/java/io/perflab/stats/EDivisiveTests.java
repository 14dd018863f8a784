package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EDivisiveTests {

    @Test
    void findsTwoStepsAndReportsTheSegmentMeans() {
        Random random = new Random(3);
        double[] series = new double[120];
        for (int i = 0; i < series.length; i++) {
            series[i] = (i < 40 ? 10 : i < 80 ? 14 : 11) + random.nextGaussian() * 0.8;
        }
        List<ChangePoint> found = EDivisive.defaults().detect(series);
        assertThat(found).extracting(ChangePoint::index).hasSize(2)
                .allSatisfy(i -> assertThat(Math.min(Math.abs(i - 40), Math.abs(i - 80))).isLessThanOrEqualTo(2));
        assertThat(found.get(0).meanBefore()).isCloseTo(10, org.assertj.core.data.Offset.offset(0.5));
        assertThat(found.get(0).pValue()).isLessThanOrEqualTo(0.01);
    }

    @Test
    void isReproducibleForASeed() {
        Random random = new Random(9);
        double[] series = new double[80];
        for (int i = 0; i < series.length; i++) {
            series[i] = (i < 50 ? 0 : 0.9) + random.nextGaussian() * 0.5;
        }
        assertThat(EDivisive.defaults().detect(series)).isEqualTo(EDivisive.defaults().detect(series));
    }

    @Test
    void shortSeriesHaveNoChangePointAndBadSettingsAreRejected() {
        assertThat(EDivisive.defaults().detect(new double[] {1, 2, 3, 100, 100, 100})).isEmpty();
        assertThatThrownBy(() -> new EDivisive(0, 199, 5, 1)).hasMessageContaining("significance level");
        assertThatThrownBy(() -> new EDivisive(0.01, 199, 1, 1)).hasMessageContaining("minimum segment");
        assertThatThrownBy(() -> EDivisive.defaults().detect(new double[] {1, Double.NaN}))
                .hasMessageContaining("'series' value 2 is NaN");
    }

    @Test
    void findsWhatTheDefinitionComputedPairByPairFinds() {
        for (int seed = 1; seed <= 12; seed++) {
            Random random = new Random(seed);
            double[] series = new double[40 + random.nextInt(40)];
            double level = 1e9;
            for (int i = 0; i < series.length; i++) {
                if (random.nextInt(25) == 0) {
                    level += (random.nextBoolean() ? 1 : -1) * 3e3;
                }
                // a large common offset and ties (values rounded to 100), as benchmark results in ns have them
                series[i] = level + Math.round(random.nextGaussian() * 10) * 100;
            }
            EDivisive detector = new EDivisive(0.05, 99, 3, seed);
            List<ChangePoint> found = detector.detect(series);
            List<ChangePoint> expected = byDefinition(detector, series);
            assertThat(found).as("seed " + seed).extracting(ChangePoint::index, ChangePoint::pValue)
                    .isEqualTo(expected.stream().map(c -> org.assertj.core.groups.Tuple.tuple(c.index(), c.pValue()))
                            .toList());
            for (int i = 0; i < found.size(); i++) {
                assertThat(found.get(i).statistic()).isCloseTo(expected.get(i).statistic(),
                        org.assertj.core.data.Percentage.withPercentage(1e-6));
            }
        }
    }

    /** E-divisive as its definition reads, each Ê from its pairwise sums: O(κ³) a split, for tests only. */
    private static List<ChangePoint> byDefinition(EDivisive d, double[] series) {
        Random random = new Random(d.seed());
        java.util.TreeSet<Integer> cuts = new java.util.TreeSet<>(List.of(0, series.length));
        List<ChangePoint> found = new java.util.ArrayList<>();
        while (true) {
            double[] best = null;
            Integer previous = null;
            for (int cut : cuts) {
                if (previous != null) {
                    double[] s = bestSplitByDefinition(series, previous, cut, d.minSegment());
                    if (s != null && (best == null || s[3] > best[3])) {
                        best = s;
                    }
                }
                previous = cut;
            }
            if (best == null) {
                return found.stream().sorted(java.util.Comparator.comparingInt(ChangePoint::index)).toList();
            }
            double[] segment = java.util.Arrays.copyOfRange(series, (int) best[0], (int) best[1]);
            int atLeast = 0;
            for (int i = 0; i < d.permutations(); i++) {
                for (int k = segment.length - 1; k > 0; k--) {
                    int j = random.nextInt(k + 1);
                    double t = segment[k];
                    segment[k] = segment[j];
                    segment[j] = t;
                }
                double[] s = bestSplitByDefinition(segment, 0, segment.length, d.minSegment());
                if (s != null && s[3] >= best[3]) {
                    atLeast++;
                }
            }
            double p = (1.0 + atLeast) / (1.0 + d.permutations());
            if (p > d.significanceLevel()) {
                return found.stream().sorted(java.util.Comparator.comparingInt(ChangePoint::index)).toList();
            }
            int tau = (int) best[2];
            cuts.add(tau);
            found.add(new ChangePoint(tau, p, best[3], Double.NaN, Double.NaN));
        }
    }

    private static double[] bestSplitByDefinition(double[] v, int start, int end, int minSegment) {
        double[] best = null;
        for (int tau = start + minSegment; tau <= end - minSegment; tau++) {
            int m = tau - start;
            int r = end - tau;
            double cross = 0;
            double leftWithin = 0;
            double rightWithin = 0;
            for (int i = start; i < end; i++) {
                for (int k = i + 1; k < end; k++) {
                    double distance = Math.abs(v[i] - v[k]);
                    if (k < tau) {
                        leftWithin += distance;
                    } else if (i >= tau) {
                        rightWithin += distance;
                    } else {
                        cross += distance;
                    }
                }
            }
            double e = 2 * cross / ((double) m * r) - leftWithin / (m * (m - 1) / 2.0)
                    - rightWithin / (r * (r - 1) / 2.0);
            double q = (double) m * r / (end - start) * e;
            if (best == null || q > best[3]) {
                best = new double[] {start, end, tau, q};
            }
        }
        return best;
    }
}
