package io.perflab.paired;

import static io.perflab.paired.PairedFixtures.failedPair;
import static io.perflab.paired.PairedFixtures.pair;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.runner.experiment.PairCosts;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.PairWindows;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.StatWarning;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class PairedSamplesTests {

    @Test
    void windowsLineUpByPairAndWindowAndFailedPairsAreLeftOut() {
        List<TrialResult> results = new ArrayList<>();
        Stream.of(pair(3, "cpu_us_per_req", new double[] {50, 52}, new double[] {49, 51}), failedPair(1),
                pair(0, "cpu_us_per_req", new double[] {40, 42}, new double[] {41, 43}))
                .forEach(p -> results.addAll(p.results()));
        results.remove(results.size() - 1); // pair 0 lost its last window of the change

        PairedSamples samples = PairedSamples.of(results);
        List<PairWindows> windows = samples.windows("cpu_us_per_req");

        assertThat(samples.pairs()).isEqualTo(2);
        assertThat(samples.windowsPerPair()).isEqualTo(2);
        assertThat(samples.metrics()).containsExactly("cpu_us_per_req");
        assertThat(windows.get(0).without()).containsExactly(40, 42);
        assertThat(windows.get(0).with()).containsExactly(41, Double.NaN);
        assertThat(windows.get(1).with()).containsExactly(49, 51);
        assertThat(samples.mean("cpu_us_per_req", VariantName.WITH)).isEqualTo((41 + 49 + 51) / 3.0);
        assertThat(PairedSamples.isPaired(results)).isTrue();
    }

    @Test
    void costsComeFromWhatEachWindowRecorded() {
        List<TrialResult> results = new ArrayList<>(pair(0, "cpu_us_per_req", new double[] {50, 52},
                new double[] {49, 51}).results());

        // 14 s of setup; four results of 1.5 s each over 2 windows of each variant: 3 s per window
        assertThat(PairCosts.of(results, 2)).contains(new PairCosts(14, 3));
    }

    /** Pairs 0 to 4 of three windows; 'with' measured {@code bad} in pair 3's window 1; pair 1 failed if told. */
    private static List<TrialResult> aZeroInPair3Window1(boolean pair1Failed, double bad) {
        List<TrialResult> results = new ArrayList<>();
        for (int index = 0; index < 5; index++) {
            if (index == 1 && pair1Failed) {
                results.addAll(failedPair(1).results());
                continue;
            }
            double[] with = {41 + index, 42, 41.5};
            if (index == 3) {
                with[1] = bad;
            }
            results.addAll(pair(index, "cpu_us_per_req", new double[] {40, 41, 40.5}, with).results());
        }
        return results;
    }

    @Test
    void theAnalysisNamesAPairAndWindowByTheirRecordedIndexesWhicheverPairFailed() {
        // as the experiment file, the samples and perflab ab's progress lines do: "pair 3 window 1", from 0
        for (boolean failed : new boolean[] {false, true}) {
            List<PairWindows> windows = PairedSamples.of(aZeroInPair3Window1(failed, 0.0)).windows("cpu_us_per_req");
            assertThatThrownBy(() -> PairedAnalysis.analyze(windows, ComparisonOptions.defaults()))
                    .as(failed ? "pair 1 failed" : "no pair failed")
                    .hasMessage("pair 3, window 1: 'with' is 0.0: a log ratio needs positive values");
        }
        PairedAnalysis a = PairedAnalysis.analyze(PairedSamples.of(aZeroInPair3Window1(true, Double.NaN))
                .windows("cpu_us_per_req"), ComparisonOptions.defaults());
        assertThat(a.pairIndexes()).containsExactly(0, 2, 3, 4);
        assertThat(a.warnings()).extracting(StatWarning::message).contains(
                "1 window without a partner: left out windows measured on one side only (pair 3)");
    }
}
