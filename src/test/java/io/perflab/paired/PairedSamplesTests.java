package io.perflab.paired;

import static io.perflab.paired.PairedFixtures.failedPair;
import static io.perflab.paired.PairedFixtures.pair;
import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.experiment.PairCosts;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.PairWindows;
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
}
