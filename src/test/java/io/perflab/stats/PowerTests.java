package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PowerTests {

    @Test
    void minimumDetectableDifferenceIsTheSumOfTQuantilesTimesTheStandardError() {
        // R: (qt(0.975, 78) + qt(0.8, 78)) * sqrt(2/40); (qt(0.975, 18) + qt(0.8, 18)) * 2.5 * sqrt(2/10)
        assertThat(Power.minimumDetectableDifference(1, 40, 0.05, 0.8)).isCloseTo(0.634395029925, within(1e-9));
        assertThat(Power.minimumDetectableDifference(2.5, 10, 0.05, 0.8)).isCloseTo(3.31270195947, within(1e-9));
    }

    @Test
    void minimumDetectableDifferenceAgreesWithRsNoncentralPowerCalculation() {
        // R: power.t.test(n = 40, sd = 1, sig.level = 0.05, power = 0.8)$delta = 0.6342989635
        assertThat(Power.minimumDetectableDifference(1, 40, 0.05, 0.8)).isCloseTo(0.6342989635, within(2e-4));
    }

    @Test
    void minimumDetectableDifferenceRejectsWhatHasNoAnswer() {
        assertThatIllegalArgumentException().isThrownBy(() -> Power.minimumDetectableDifference(1, 1, 0.05, 0.8))
                .withMessageContaining("at least 2");
        assertThatIllegalArgumentException().isThrownBy(() -> Power.minimumDetectableDifference(-1, 5, 0.05, 0.8))
                .withMessageContaining("standard deviation");
        assertThatIllegalArgumentException().isThrownBy(() -> Power.minimumDetectableDifference(1, 5, 0, 0.8))
                .withMessageContaining("alpha");
        assertThat(Power.minimumDetectableDifference(0, 5, 0.05, 0.8)).isZero();
    }
}
