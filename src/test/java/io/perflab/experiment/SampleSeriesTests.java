package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.runner.experiment.VariantName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SampleSeriesTests {

    @Test
    void valuesReadBackAsTheSameDoubles() {
        SplittableRandom random = new SplittableRandom(19);
        double[] values = new double[SampleSeries.BLOCK_SIZE];
        for (int i = 0; i < values.length; i++) {
            // every bit pattern of a finite double, signs and subnormals included
            do {
                values[i] = Double.longBitsToDouble(random.nextLong());
            } while (!Double.isFinite(values[i]));
        }
        values[0] = -Double.MAX_VALUE;
        values[1] = Double.MIN_VALUE;
        values[2] = -0.0;
        values[3] = 0.1 + 0.2;
        SampleSeries series = new SampleSeries("with", "m", 0, 0, values);

        String text = series.text();

        assertThat(text.length()).isLessThanOrEqualTo(110_000);
        double[] read = SampleSeries.values(text, values.length);
        for (int i = 0; i < values.length; i++) {
            assertThat(Double.doubleToRawLongBits(read[i])).as("value %d", i)
                    .isEqualTo(Double.doubleToRawLongBits(values[i]));
        }
    }

    @Test
    void runsArePackedPerSideAndMetricInBlocksOfConsecutiveOrdinals() {
        List<RecordedExperiment.Run> runs = new ArrayList<>();
        for (int i = 0; i < SampleSeries.BLOCK_SIZE + 3; i++) {
            runs.add(new RecordedExperiment.Run(VariantName.WITHOUT, i, Map.of("a", (double) i)));
        }
        int with = runs.size();
        runs.add(new RecordedExperiment.Run(VariantName.WITH, with, Map.of("a", 1.0, "b", 2.0)));
        runs.add(new RecordedExperiment.Run(VariantName.WITH, with + 1, Map.of("a", 3.0)));
        runs.add(new RecordedExperiment.Run(VariantName.WITH, with + 2, Map.of("a", 5.0, "b", 6.0)));

        List<SampleSeries> series = SampleSeries.pack(runs);

        assertThat(series).extracting(SampleSeries::variant, SampleSeries::metric, SampleSeries::block,
                        SampleSeries::firstOrdinal, s -> s.values().length)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("without", "a", 0, 0, SampleSeries.BLOCK_SIZE),
                        org.assertj.core.groups.Tuple.tuple("without", "a", 1, SampleSeries.BLOCK_SIZE, 3),
                        org.assertj.core.groups.Tuple.tuple("with", "a", 0, with, 3),
                        org.assertj.core.groups.Tuple.tuple("with", "b", 0, with, 1),
                        org.assertj.core.groups.Tuple.tuple("with", "b", 1, with + 2, 1));
        assertThat(series.get(1).values()).containsExactly(4096.0, 4097.0, 4098.0);
        assertThat(series.get(4).values()).containsExactly(6.0);
    }

    @Test
    void aDamagedBlockIsAnErrorNotOtherNumbers() {
        assertThatThrownBy(() -> SampleSeries.values("1.0,2.0", 3)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not hold 3 values");
        assertThatThrownBy(() -> SampleSeries.values("1.0,2.0,3.0", 2)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> SampleSeries.values("1.0,,3.0", 3)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> SampleSeries.values("1.0,x,3.0", 3)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'x'");
        assertThatThrownBy(() -> new SampleSeries("with", "m", 0, 0, new double[0]))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
