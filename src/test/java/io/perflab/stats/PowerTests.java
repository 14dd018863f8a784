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

    @Test
    void pairedMinimumDetectableEffectIsTheTQuantilesTimesTheStandardErrorOfTheMeanLogRatio() {
        // Python/SciPy: m = (t.ppf(0.975, 7) + t.ppf(0.8, 7)) * 0.0448 / sqrt(8); 100 * expm1(m) = 5.300304277454;
        // the smallest K with (t.ppf(0.975, K-1) + t.ppf(0.8, K-1)) * 0.0448 / sqrt(K) <= log(1.01) is 162
        // (K = 161 gives 0.009952 against 0.009950: the search has to get the last pair right)
        Power p = Power.paired(0.0448, 8, 0.05, 0.8, 1);

        assertThat(p.minimumDetectableEffectPercent()).isCloseTo(5.300304277454, within(1e-9));
        assertThat(p.runsPerVariantForTarget()).isEqualTo(162);
        assertThat(p.targetEffectPercent()).isEqualTo(1);
        assertThat(Power.paired(0.0448, 5, 0.05, 0.8, 1).minimumDetectableEffectPercent())
                .isCloseTo(7.732264573385, within(1e-9));
        assertThat(Power.paired(0.02, 30, 0.05, 0.8, 1).runsPerVariantForTarget()).isEqualTo(34);
    }

    @Test
    void pairedMinimumDetectableEffectAgreesWithTheNoncentralPowerOfTheOneSampleTest() {
        // the delta of R's power.t.test(n = 30, sd = 0.02, sig.level = 0.05, power = 0.8, type = "one.sample"), its
        // noncentral t computed with SciPy: 0.0105847249 (the sum of quantiles gives 0.0105871909)
        double mde = Math.log1p(Power.paired(0.02, 30, 0.05, 0.8, 1).minimumDetectableEffectPercent() / 100);
        assertThat(mde).isCloseTo(0.0105847249, within(5e-6));
    }

    @Test
    void pairedSensitivityRejectsWhatHasNoAnswerAndNeedsTwoPairsWithoutSpread() {
        assertThatIllegalArgumentException().isThrownBy(() -> Power.paired(0.05, 1, 0.05, 0.8, 1))
                .withMessageContaining("pairs must be at least 2");
        assertThatIllegalArgumentException().isThrownBy(() -> Power.paired(Double.NaN, 5, 0.05, 0.8, 1))
                .withMessageContaining("standard deviation");
        assertThatIllegalArgumentException().isThrownBy(() -> Power.paired(0.05, 5, 0.05, 1, 1))
                .withMessageContaining("power");
        assertThatIllegalArgumentException().isThrownBy(() -> Power.paired(0.05, 5, 0.05, 0.8, 0))
                .withMessageContaining("target effect");
        Power constant = Power.paired(0, 5, 0.05, 0.8, 1);
        assertThat(constant.minimumDetectableEffectPercent()).isZero();
        assertThat(constant.runsPerVariantForTarget()).isEqualTo(2);
        assertThat(Power.paired(5, 3, 0.05, 0.8, 0.001).runsPerVariantForTarget()).isEqualTo(Power.MAX_RUNS);
    }
}
