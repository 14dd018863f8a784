package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RFormatTests {

    record Line(String kind, int digits, double[] values, String expected) {
        @Override
        public String toString() {
            return kind + " digits=" + digits + " " + Arrays.toString(values) + " -> '" + expected + "'";
        }
    }

    // Expected: R 4.2.2 format(x, digits) and format.pval(p, digits), written by
    // src/test/resources/stats/format_reference.R into format_cases.txt
    static List<Line> lines() throws IOException {
        List<Line> lines = new ArrayList<>();
        try (InputStream in = RFormatTests.class.getResourceAsStream("/stats/format_cases.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\\|", -1);
                double[] values = Arrays.stream(f[2].split(" ")).mapToDouble(s -> switch (s) {
                    case "Inf" -> Double.POSITIVE_INFINITY;
                    case "-Inf" -> Double.NEGATIVE_INFINITY;
                    default -> Double.parseDouble(s);
                }).toArray();
                lines.add(new Line(f[0], Integer.parseInt(f[1]), values, f[3]));
            }
        }
        return lines;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lines")
    void formatsAsR(Line line) {
        String actual = switch (line.kind()) {
            case "one" -> RFormat.format(line.values()[0], line.digits());
            case "two" -> String.join("~", RFormat.format(line.values(), line.digits()));
            default -> RFormat.formatPValue(line.values()[0], line.digits());
        };
        assertThat(actual).isEqualTo(line.expected());
    }
}
