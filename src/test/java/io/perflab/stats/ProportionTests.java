package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ProportionTests {

    @Test
    void clopperPearsonBoundsAreRsBinomTest() {
        // R: binom.test(2, 20)$conf.int; binom.test(1, 20)$conf.int
        Proportion two = Proportion.clopperPearson(2, 20, 0.95);
        assertThat(two.rate()).isEqualTo(0.1);
        assertThat(two.low()).isCloseTo(0.01234852717, within(1e-9));
        assertThat(two.high()).isCloseTo(0.31698271402, within(1e-9));
        Proportion one = Proportion.clopperPearson(1, 20, 0.95);
        assertThat(one.low()).isCloseTo(0.00126508950, within(1e-9));
        assertThat(one.high()).isCloseTo(0.24873276277, within(1e-9));
    }

    @Test
    void edgesAreZeroAndOne() {
        // R: binom.test(0, 20)$conf.int = 0 0.1684335; binom.test(20, 20)$conf.int = 0.8315665 1
        Proportion none = Proportion.clopperPearson(0, 20, 0.95);
        assertThat(none.low()).isZero();
        assertThat(none.high()).isCloseTo(0.16843347098, within(1e-9));
        Proportion all = Proportion.clopperPearson(20, 20, 0.95);
        assertThat(all.low()).isCloseTo(0.83156652902, within(1e-9));
        assertThat(all.high()).isEqualTo(1);
    }

    @Test
    void rejectsCountsThatAreNotAProportion() {
        assertThatIllegalArgumentException().isThrownBy(() -> Proportion.clopperPearson(3, 2, 0.95))
                .withMessageContaining("3 of 2");
        assertThatIllegalArgumentException().isThrownBy(() -> Proportion.clopperPearson(0, 0, 0.95))
                .withMessageContaining("trials ≥ 1");
        assertThatIllegalArgumentException().isThrownBy(() -> Proportion.clopperPearson(1, 2, 1))
                .withMessageContaining("confidence");
    }
}
