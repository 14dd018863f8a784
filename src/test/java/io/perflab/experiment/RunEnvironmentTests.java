package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RunEnvironmentTests {

    /**
     * The page said "86.6477 … (4 different values across runs)" of an entry the HTML report said "varies per run:
     * 53.03 to 90.4" of: both say it alike now.
     */
    @Test
    void anEntryThatVariesIsDescribedByItsRangeOrItsFirstValuesAndHowManyThereWere() {
        assertThat(RunEnvironment.describe(List.of("17.0.10+7"))).isEqualTo("17.0.10+7");
        assertThat(RunEnvironment.describe(List.of("86.6477", "53.0312", "90.4", "61.25")))
                .isEqualTo("varies per run: 53.03 to 90.4 (4 different values)");
        assertThat(RunEnvironment.describe(List.of("auto", "fixed"))).isEqualTo("varies per run: auto · fixed");
        assertThat(RunEnvironment.describe(List.of("a", "b", "c", "d", "5")))
                .isEqualTo("varies per run: a · b · c … (5 different values)");
    }
}
