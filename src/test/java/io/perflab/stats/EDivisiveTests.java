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
}
