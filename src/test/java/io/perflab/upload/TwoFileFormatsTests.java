package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The two files of one upload may be of two formats only where they measured the same metrics. */
class TwoFileFormatsTests {

    private static final String GO = "BenchmarkJoin-2 20 910.9 ns/op\nBenchmarkJoin-2 20 911.9 ns/op\n";

    private final UploadFormats formats = new UploadFormats();

    @Test
    void refusesFilesOfTwoFormatsThatShareNoMetricNamingBoth() {
        // was stored with every metric compared against an empty side, without a note
        assertThatThrownBy(() -> formats.parseSides(GO, "metric,value\nparse_ns,1\nparse_ns,2\n", null))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessage("The files share no metric (without: gobench, with: csv), so nothing can be compared; "
                        + "upload both sides' output of the same tool.");
    }

    @Test
    void refusesFilesOfOneFormatThatShareNoMetric() {
        // Go output of BenchmarkA against that of BenchmarkB: every metric stood against an empty side, and the
        // CI gate passed
        String a = "BenchmarkA-2 \t 1000\t 50.5 ns/op\nBenchmarkA-2 \t 1000\t 51.5 ns/op\n";
        assertThatThrownBy(() -> formats.parseSides(a, a.replace("BenchmarkA", "BenchmarkB"), null))
                .hasMessage("The files share no metric (without: gobench, with: gobench), so nothing can be "
                        + "compared; upload the output of the same benchmarks before and after the change.");
        assertThat(formats.parseSides(a, a.replace("50.5", "49.5"), null)).hasSize(2);
    }

    @Test
    void readsFilesOfTwoFormatsThatShareAMetric() {
        List<ParsedUpload> sides = formats.parseSides(GO, "metric,value,variant,unit\nJoin:ns/op,900,with,ns/op\n",
                null);
        assertThat(sides.get(1).variants().get("with").metrics()).containsKey("Join:ns/op");
    }
}
