package io.perflab.stats;

import static io.perflab.stats.Tolerance.assertRelative;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PairedTTestTests {

    static List<ReferenceCases.Case> results() {
        return ReferenceCases.paired().stream().filter(c -> c.fields("paired") != null).toList();
    }

    // Expected: R 4.2.2 t.test(with, without, paired = TRUE, alternative, conf.level) via
    // src/test/resources/stats/paired_reference.R (paired_cases.txt): n = 2, ties, p < 2.2e-16, less at 0.9,
    // greater at 0.99, 1e9 + noise, negative differences
    @ParameterizedTest(name = "{0}")
    @MethodSource("results")
    void matchesR(ReferenceCases.Case c) {
        TTestResult r = TTest.paired(c.with(), c.without(), c.alternative(), c.confidenceLevel());
        double[] e = c.numbers("paired");
        String what = c.name() + " paired";
        Tolerance.assertTTest(e, r, 1e-12, what);
        assertRelative(e[5], r.difference(), 1e-12, what + " mean difference");
        assertRelative(e[6], r.stdErr(), 1e-12, what + " stderr");
        assertRelative(e[7], r.meanWith(), 1e-12, what + " mean with");
        assertRelative(e[8], r.meanWithout(), 1e-12, what + " mean without");
        assertThat(r.method()).isEqualTo("Paired t-test");
        assertThat(r.paired()).isTrue();
        assertThat(r.alternative()).isEqualTo(c.alternative());
    }

    @Test
    void coversTheCasesTheIssueAsksFor() {
        assertThat(results()).extracting(ReferenceCases.Case::name).contains("n2", "ties", "tiny_p", "less_0.9",
                "greater_0.99", "offset_1e9", "negative_differences");
        // R 4.2.2: t = -64.487, p-value < 2.2e-16 (print/tiny_p.paired.txt)
        assertThat(ReferenceCases.paired().stream().filter(c -> c.name().equals("tiny_p")).findFirst().orElseThrow()
                .numbers("paired")[2]).isLessThan(RFormat.DOUBLE_EPS);
    }

    @Test
    void refusesAConstantDifferenceAsR() {
        // R 4.2.2: t.test(with, without, paired = TRUE) with with = without + 2 stops with
        // "data are essentially constant" (paired_cases.txt, case constant_difference)
        ReferenceCases.Case c = ReferenceCases.paired().stream().filter(x -> x.name().equals("constant_difference"))
                .findFirst().orElseThrow();
        assertThat(String.join(" ", c.fields("error"))).isEqualTo("data are essentially constant");
        assertThatThrownBy(() -> TTest.paired(c.with(), c.without(), Alternative.TWO_SIDED, 0.95))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("data are essentially constant: the differences 'with' − 'without' are"
                        + " (almost) all the same");
    }

    @Test
    void refusesIdenticalSamplesWhereRAnswersNaN() {
        // R 4.2.2 prints t = NaN, p-value = NA for identical samples (print/identical.paired.txt): a zero standard
        // error passes R's check 0 < 10·ε·|0|. PerfLab never presents NaN as a result and refuses them as constant.
        ReferenceCases.Case c = ReferenceCases.paired().stream().filter(x -> x.name().equals("identical"))
                .findFirst().orElseThrow();
        assertThat(c.fields("nan")).isNotNull();
        assertThat(c.print("paired")).contains("t = NaN, df = 2, p-value = NA");
        assertThatThrownBy(() -> TTest.paired(c.with(), c.without(), Alternative.TWO_SIDED, 0.95))
                .hasMessageStartingWith("data are essentially constant");
    }

    @Test
    void refusesUnequalLengthsAndTooFewPairs() {
        assertThatThrownBy(() -> TTest.paired(new double[] {1, 2, 3}, new double[] {1, 2}, Alternative.TWO_SIDED,
                0.95)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a paired test needs one 'without' value for each 'with' value: 'with' has 3 and"
                        + " 'without' 2");
        // R: t.test(1, 2, paired = TRUE) stops with "not enough 'x' observations"
        assertThatThrownBy(() -> TTest.paired(new double[] {1}, new double[] {2}, Alternative.TWO_SIDED, 0.95))
                .hasMessage("not enough pairs: 1 (need ≥ 2)");
        assertThatThrownBy(() -> TTest.paired(new double[] {1, Double.NaN}, new double[] {2, 3},
                Alternative.TWO_SIDED, 0.95)).hasMessageContaining("'with' value 2 is NaN");
        assertThatThrownBy(() -> TTest.paired(new double[] {1, 2}, new double[] {2, 4}, Alternative.TWO_SIDED, 1))
                .hasMessageContaining("confidence level");
    }

    @Test
    void oneSampleTestMatchesR() throws IOException {
        // Expected: R 4.2.2 t.test(x), written by paired_reference.R into src/test/resources/stats/one_sample.txt
        Map<String, double[]> lines = new HashMap<>();
        try (InputStream in = getClass().getResourceAsStream("/stats/one_sample.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.startsWith("#")) {
                    String[] w = line.split(" ");
                    lines.put(w[0], Arrays.stream(w).skip(1).mapToDouble(Double::parseDouble).toArray());
                }
            }
        }
        TTestResult r = TTest.oneSample(lines.get("x"), Alternative.TWO_SIDED, 0.95);
        double[] e = lines.get("one_sample");
        Tolerance.assertTTest(e, r, 1e-12, "one sample");
        assertRelative(e[5], r.difference(), 1e-12, "mean");
        assertRelative(e[6], r.stdErr(), 1e-12, "stderr");
        assertThat(r.method()).isEqualTo("One Sample t-test");
        assertThat(r.meanWithout()).isZero();
    }
}
