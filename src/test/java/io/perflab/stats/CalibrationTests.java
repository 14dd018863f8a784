package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Behaviour by simulation, seeded so that it is reproducible (issue 5, acceptance 4). */
class CalibrationTests {

    @Test
    void welchFalsePositiveRateOfAaComparisonsIsNearAlpha() {
        Random random = new Random(20240229);
        int positives = 0;
        int runs = 2000;
        for (int i = 0; i < runs; i++) {
            double[] a = new double[40];
            double[] b = new double[40];
            for (int j = 0; j < 40; j++) {
                a[j] = 50 + 3 * random.nextGaussian();
                b[j] = 50 + 3 * random.nextGaussian();
            }
            if (TTest.welch(a, b, Alternative.TWO_SIDED, 0.95).pValue() < 0.05) {
                positives++;
            }
        }
        assertThat(positives / (double) runs).isBetween(0.04, 0.06);
    }

    @Test
    void eDivisiveFindsAFiveSigmaStep() {
        Random random = new Random(7);
        double[] series = new double[100];
        for (int i = 0; i < 100; i++) {
            series[i] = (i < 60 ? 10 : 15) + random.nextGaussian();
        }
        List<ChangePoint> found = EDivisive.defaults().detect(series);
        assertThat(found).isNotEmpty();
        assertThat(found).anySatisfy(c -> assertThat(c.index()).isBetween(58, 62));
    }

    @Test
    void eDivisiveRarelyFlagsFlatNoise() {
        Random random = new Random(8);
        int flagged = 0;
        for (int s = 0; s < 20; s++) {
            double[] series = new double[100];
            for (int i = 0; i < 100; i++) {
                series[i] = 10 + random.nextGaussian();
            }
            if (!EDivisive.defaults().detect(series).isEmpty()) {
                flagged++;
            }
        }
        assertThat(flagged).isLessThanOrEqualTo(2);
    }
}
