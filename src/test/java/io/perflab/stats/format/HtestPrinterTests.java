package io.perflab.stats.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.stats.Alternative;
import io.perflab.stats.RankSumTest;
import io.perflab.stats.TTest;
import io.perflab.stats.TTestResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HtestPrinterTests {

    record Case(String name, double[] with, double[] without, Alternative alternative, double level, boolean exact) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() throws IOException {
        return cases("/stats/cases.txt", "wilcox");
    }

    /** The cases of paired_cases.txt that R answered with a result (not an error or NaN). */
    static List<Case> pairedCases() throws IOException {
        return cases("/stats/paired_cases.txt", "paired");
    }

    private static List<Case> cases(String resource, String resultKey) throws IOException {
        List<Case> cases = new ArrayList<>();
        try (InputStream in = HtestPrinterTests.class.getResourceAsStream(resource)) {
            String name = null;
            double[] with = null;
            double[] without = null;
            Alternative alternative = null;
            double level = 0;
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] w = line.split(" ", 2);
                switch (w[0]) {
                    case "case" -> name = w[1];
                    case "with" -> with = numbers(w[1]);
                    case "without" -> without = numbers(w[1]);
                    case "alternative" -> alternative = Alternative.parse(w[1]);
                    case "conf" -> level = Double.parseDouble(w[1]);
                    default -> {
                        if (w[0].equals(resultKey)) {
                            cases.add(new Case(name, with, without, alternative, level, w[1].endsWith("exact_test")));
                        }
                    }
                }
            }
        }
        return cases;
    }

    private static double[] numbers(String text) {
        return java.util.Arrays.stream(text.split(" ")).mapToDouble(Double::parseDouble).toArray();
    }

    private static String r(String name) throws IOException {
        try (InputStream in = HtestPrinterTests.class.getResourceAsStream("/stats/print/" + name + ".txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    // Expected: R 4.2.2 capture.output(print(t.test(with, without, ...))) written by reference.R into
    // src/test/resources/stats/print/<case>.welch.txt; includes p < 2.2e-16 (context_switches) and n = 2 vs 3
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void welchPrintOutEqualsR(Case c) throws IOException {
        TTestResult result = TTest.welch(c.with(), c.without(), c.alternative(), c.level());
        assertThat(HtestPrinter.tTest(result)).isEqualTo(r(c.name() + ".welch"));
    }

    // Expected: R 4.2.2 print(t.test(with, without, var.equal = TRUE, ...)) via reference.R
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void studentPrintOutEqualsR(Case c) throws IOException {
        TTestResult result = TTest.student(c.with(), c.without(), c.alternative(), c.level());
        assertThat(HtestPrinter.tTest(result)).isEqualTo(r(c.name() + ".student"));
    }

    // Expected: R 4.2.2 print(t.test(with, without, paired = TRUE, ...)) written by paired_reference.R into
    // print/<case>.paired.txt: "mean difference", p-value < 2.2e-16 (tiny_p), -Inf/Inf bounds, 1e9 offsets, n = 2
    @ParameterizedTest(name = "{0}")
    @MethodSource("pairedCases")
    void pairedPrintOutEqualsR(Case c) throws IOException {
        TTestResult result = TTest.paired(c.with(), c.without(), c.alternative(), c.level());
        assertThat(HtestPrinter.tTest(result)).isEqualTo(r(c.name() + ".paired"));
    }

    // Expected: R 4.2.2 print(t.test(x)) written by paired_reference.R into print/one_sample.txt (x from
    // one_sample.txt)
    @Test
    void oneSamplePrintOutEqualsR() throws IOException {
        String x;
        try (InputStream in = HtestPrinterTests.class.getResourceAsStream("/stats/one_sample.txt")) {
            x = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("x "))
                    .findFirst().orElseThrow().substring(2);
        }
        TTestResult result = TTest.oneSample(numbers(x), Alternative.TWO_SIDED, 0.95);
        assertThat(HtestPrinter.tTest(result)).isEqualTo(r("one_sample"));
    }

    // Expected: R 4.2.2 print(wilcox.test(with, without, conf.int = TRUE, ...)) via reference.R, for the cases on
    // the exact branch (on the normal branch R's bounds come from uniroot and differ in the last printed digits)
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void exactRankSumPrintOutEqualsR(Case c) throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(c.exact(), "normal approximation");
        assertThat(HtestPrinter.rankSum(RankSumTest.test(c.with(), c.without(), c.alternative(), c.level())))
                .isEqualTo(r(c.name() + ".wilcox"));
    }
}
