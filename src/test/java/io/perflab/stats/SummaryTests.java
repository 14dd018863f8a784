package io.perflab.stats;

import static io.perflab.stats.Tolerance.assertRelative;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SummaryTests {

    static List<ReferenceCases.Case> cases() {
        return ReferenceCases.all();
    }

    // Expected: R 4.2.2 mean, sd, median and quantile(type 7) of 'with' (reference.R "summary" line); includes
    // offset_1e9 (1e9 + noise of 1e-3), where a one-pass variance would lose every digit
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesR(ReferenceCases.Case c) {
        double[] e = c.numbers("summary");
        Summary s = Summary.of(c.with(), "with");
        assertRelative(e[0], s.mean(), 1e-12, "mean");
        if (e[1] != 0) {
            assertRelative(e[1], s.sd(), 1e-12, "sd");
        }
        assertRelative(e[2], s.median(), 1e-15, "median");
        assertRelative(e[3], s.min(), 0, "min");
        assertRelative(e[4], s.q1(), 1e-15, "q1");
        assertRelative(e[6], s.q3(), 1e-15, "q3");
        assertRelative(e[7], s.max(), 0, "max");
    }

    @Test
    void quartilesOfSmallSampleMatchR() {
        // R 4.2.2 quantile(c(2.5, 3.1, 2.9, 3.0, 2.8, 3.3, 2.7, 3.0, 2.6, 9.5)) (extras_reference.R)
        Summary s = Summary.of(new double[] {2.5, 3.1, 2.9, 3.0, 2.8, 3.3, 2.7, 3.0, 2.6, 9.5}, "with");
        assertThat(s.q1()).isEqualTo(2.7250000000000005);
        assertThat(s.median()).isEqualTo(2.9500000000000002);
        assertThat(s.q3()).isEqualTo(3.0750000000000002);
        assertThat(s.coefficientOfVariation()).isPresent();
    }
}
