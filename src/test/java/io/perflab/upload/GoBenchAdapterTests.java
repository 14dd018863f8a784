package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Go output cut off within its last line invents no metric; no line that begins as a result line is skipped. */
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

    /**
     * A result line holding U+0085, U+2028 or U+2029 (which end a line for a pattern's '.', not for the file's lines)
     * was skipped without a word, its samples lost, and a long one took time growing with the square of its length.
     * Go's readers split a line's fields at these as at any space: a unit followed by one was a metric of its own
     * ({@code Join:ns/op} and U+2029), or refused (U+0085).
     */
    @Test
    void readsAResultLineHoldingACharacterThatEndsALineElsewhere() {
        for (String space : new String[] {"\u2029", "\u2028", "\u0085", "\u00A0", "\u3000"}) {
            String line = "BenchmarkJoin-8 1000000 1070 ns/op" + space + " 130 B/op" + space + "2 allocs/op\n";
            ParsedUpload upload = formats.parse(FIRST + line, UploadFormat.GOBENCH, "with", null);
            Map<String, MetricSamples> metrics = upload.variants().get("with").metrics();
            assertThat(metrics).as(line).containsOnlyKeys("Join:ns/op", "Join:B/op", "Join:allocs/op");
            assertThat(metrics.get("Join:ns/op").values()).containsExactly(1060.0, 1070.0);
            assertThat(metrics.get("Join:B/op").values()).containsExactly(128.0, 130.0);
            UploadValidator.validate(upload, null, null, GitInfo.NONE, Map.of(), JsonContent.MAPPER);
        }
        // tried for each digit of the iteration count, the rest of the line took minutes for this one
        String longLine = "BenchmarkJoin-8 " + "1".repeat(200_000) + " \u0085x\n";
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThatThrownBy(() -> formats.parse(longLine,
                UploadFormat.GOBENCH, "with", null)).hasMessageStartingWith("Go benchmark line 1 ('BenchmarkJoin-8 111")
                .hasMessageEndingWith(" does not consist of value/unit pairs: a value has no unit, or the line was "
                        + "cut off."));
    }

    /**
     * A name or an iteration count followed by a space Go splits at, not Java's {@code \\s}, ends there as in Go: the
     * count was refused ("not a whole number"), and a name followed by U+00A0 took the count into it. The format
     * is found the same way.
     */
    @Test
    void endsTheNameAndTheIterationCountAtEverySpaceGoSplitsAt() {
        for (String space : new String[] {"\u2029", "\u2028", "\u0085", "\u00A0", "\u3000", "\u202F"}) {
            String line = "BenchmarkJoin-8" + space + "1000000" + space + "1070 ns/op\n";
            assertThat(UploadFormats.detect(line)).as(line).contains(UploadFormat.GOBENCH);
            ParsedUpload upload = formats.parse(FIRST + line, UploadFormat.GOBENCH, "with", null);
            Map<String, MetricSamples> metrics = upload.variants().get("with").metrics();
            assertThat(metrics).as(line).containsOnlyKeys("Join:ns/op", "Join:B/op", "Join:allocs/op");
            assertThat(metrics.get("Join:ns/op").values()).as(line).containsExactly(1060.0, 1070.0);
        }
        assertThatThrownBy(() -> formats.parse("BenchmarkJoin-8 10\u00A0x 1070 ns/op\n", UploadFormat.GOBENCH,
                "with", null)).hasMessage("Go benchmark line 1 ('BenchmarkJoin-8 10 x 1070 ns/op') does not consist "
                        + "of value/unit pairs: a value has no unit, or the line was cut off.");
    }

    /** A pkg line holding U+2028 was skipped, and the benchmarks after it pooled with the package's before. */
    @Test
    void keepsThePackageOfAPkgLineHoldingACharacterThatEndsALineElsewhere() {
        String packages = "pkg: example.com/a\nBenchmarkJoin 10 5 ns/op\npkg: example.com/b\u2028c\n"
                + "BenchmarkJoin 10 6 ns/op\n";
        assertThat(formats.parse(packages, UploadFormat.GOBENCH, "with", null).variants().get("with").metrics())
                .containsOnlyKeys("a.Join:ns/op", "b\u2028c.Join:ns/op");
    }
}
