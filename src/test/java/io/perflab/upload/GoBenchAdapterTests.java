package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Go output cut off within its last line invents no metric. */
class GoBenchAdapterTests {

    private static final String FIRST = "BenchmarkJoin-8 1000000 1060 ns/op 128 B/op 2 allocs/op\n";

    private final UploadFormats formats = new UploadFormats();

    @ParameterizedTest
    @ValueSource(strings = {"BenchmarkJoin-8 1000000 1060 n", "BenchmarkJoin-8 1000000 1060 ns/op 128 B/op 2 allocs/",
        "BenchmarkJoin-8 1000000 1060 ns/op 128 B/op 2 all"})
    void refusesALastLineCutOffWithinItsUnitInsteadOfInventingAMetric(String cut) {
        // these were stored as the metrics Join:n, Join:allocs/ and Join:all
        String unit = cut.substring(cut.lastIndexOf(' ') + 1);
        assertThatThrownBy(() -> formats.parse(FIRST + cut, UploadFormat.GOBENCH, "with", null))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessage("Go benchmark line 2 ('" + cut + "') is the last and has no line end: the output was cut "
                        + "off within it, as its last unit '" + unit + "' is none Go measures (ns/op, B/op, "
                        + "allocs/op, MB/s) and no earlier line of the benchmark used it. Upload the whole output.");
    }

    @Test
    void refusesALastLineCutOffAfterAWholePairWhenEarlierLinesHadMore() {
        assertThatThrownBy(() -> formats.parse(FIRST + "BenchmarkJoin-8 1000000 1060 ns/op 128 B/op",
                UploadFormat.GOBENCH, "with", null)).isInstanceOf(InvalidUploadException.class)
                .hasMessageEndingWith("the output was cut off within it, as it has fewer value/unit pairs than line "
                        + "1. Upload the whole output.");
    }

    @Test
    void readsALastLineWithoutLineEndWhoseUnitsAreWhole() {
        String custom = "BenchmarkParse 20 5 ns/op 7 digits/op\n";
        assertThat(formats.parse(custom + "BenchmarkParse 20 6 ns/op 8 digits/op", UploadFormat.GOBENCH, "with",
                null).variants().get("with").metrics().get("Parse:digits/op").values()).containsExactly(7.0, 8.0);
        assertThat(formats.parse(FIRST + FIRST.strip(), UploadFormat.GOBENCH, "with", null).variants().get("with")
                .metrics().get("Join:allocs/op").values()).containsExactly(2.0, 2.0);
        // a line alone with a unit of b.ReportMetric written whole: nothing earlier to vouch for it, and none needed
        assertThat(formats.parse("BenchmarkX-2 \t 1000\t 50.5 ns/op\t 3.0 widgets/op", UploadFormat.GOBENCH, "with",
                null).variants().get("with").metrics().get("X:widgets/op").values()).containsExactly(3.0);
        assertThatThrownBy(() -> formats.parse("BenchmarkX-2 \t 1000\t 50.5 ns/op\t 3.0 widgets/o",
                UploadFormat.GOBENCH, "with", null)).hasMessageContaining("is the last and has no line end");
    }
}
