package io.perflab.stats;

import static io.perflab.stats.Tolerance.assertRelative;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TTestTests {

    static List<ReferenceCases.Case> cases() {
        return ReferenceCases.all();
    }

    // Expected: R 4.2.2 t.test(with, without, alternative, conf.level) via src/test/resources/stats/reference.R
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void welchMatchesR(ReferenceCases.Case c) {
        TTestResult r = TTest.welch(c.with(), c.without(), c.alternative(), c.confidenceLevel());
        assertMatches(c.numbers("welch"), r, c.name() + " welch");
        assertThat(r.method()).isEqualTo("Welch Two Sample t-test");
    }

    // Expected: R 4.2.2 t.test(with, without, var.equal = TRUE, ...) via reference.R
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void studentMatchesR(ReferenceCases.Case c) {
        TTestResult r = TTest.student(c.with(), c.without(), c.alternative(), c.confidenceLevel());
        assertMatches(c.numbers("student"), r, c.name() + " student");
    }

    private static void assertMatches(double[] e, TTestResult r, String what) {
        Tolerance.assertTTest(e, r, 1e-10, what);
        assertRelative(e[5], r.meanWith(), 1e-12, what + " mean with");
        assertRelative(e[6], r.meanWithout(), 1e-12, what + " mean without");
        assertRelative(e[7], r.stdErr(), 1e-12, what + " stderr");
    }

    @Test
    void rejectsSingleObservationNamingTheGroup() {
        // R: t.test(1, c(1, 2)) stops with "not enough 'x' observations"
        assertThatThrownBy(() -> TTest.welch(new double[] {1}, new double[] {1, 2}, Alternative.TWO_SIDED, 0.95))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not enough 'with' observations: 1 (need ≥ 2)");
        assertThatThrownBy(() -> TTest.student(new double[] {1, 2}, new double[] {3}, Alternative.TWO_SIDED, 0.95))
                .hasMessage("not enough 'without' observations: 1 (need ≥ 2)");
    }

    @Test
    void rejectsBothGroupsConstantAsR() {
        // R: t.test(c(3, 3, 3), c(5, 5)) stops with "data are essentially constant"
        assertThatThrownBy(() -> TTest.welch(new double[] {3, 3, 3}, new double[] {5, 5}, Alternative.TWO_SIDED,
                0.95)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("data are essentially constant");
    }

    @Test
    void rejectsNonFiniteValuesNamingGroupAndPosition() {
        assertThatThrownBy(() -> TTest.welch(new double[] {1, Double.NaN, 3}, new double[] {1, 2},
                Alternative.TWO_SIDED, 0.95)).hasMessageContaining("'with' value 2 is NaN");
        assertThatThrownBy(() -> TTest.welch(new double[] {1, 2}, new double[] {Double.POSITIVE_INFINITY, 2},
                Alternative.TWO_SIDED, 0.95)).hasMessageContaining("'without' value 1 is Infinity");
    }

    @Test
    void rejectsConfidenceLevelOutsideTheUnitInterval() {
        assertThatThrownBy(() -> TTest.welch(new double[] {1, 2}, new double[] {1, 3}, Alternative.TWO_SIDED, 1.0))
                .hasMessageContaining("confidence level");
    }
}
