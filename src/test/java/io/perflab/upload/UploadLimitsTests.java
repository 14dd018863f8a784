package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The limits of one upload, enforced while it is read. */
class UploadLimitsTests {

    @Test
    void samplesPastTheLimitAreRefusedWhileReading() {
        UploadFormats formats = new UploadFormats(new UploadLimits(100, 10));
        StringBuilder csv = new StringBuilder("metric,value\n");
        for (int i = 0; i < 10; i++) {
            csv.append("t,").append(i).append('\n');
        }
        assertThat(formats.parse(csv.toString(), UploadFormat.CSV, "with", null).sampleCount()).isEqualTo(10);
        // the 11th value fails, and so does a file of a million more: the count stops it at the 11th
        assertThatThrownBy(() -> formats.parse(csv + "t,10\n" + "t,1\n".repeat(1_000_000), UploadFormat.CSV, "with",
                null)).isInstanceOf(InvalidUploadException.class)
                .hasMessage("The upload has more than 10 samples; split it into several uploads.");
    }

    @Test
    void metricsPastTheLimitAreRefusedInEveryFormat() {
        UploadFormats formats = new UploadFormats(new UploadLimits(3, 1_000));
        // gobench.txt: 12 metrics (3 benchmarks × their units); jmh.json 20; googlebenchmark.json 8
        for (String fixture : new String[] {"gobench.txt", "jmh.json", "googlebenchmark.json",
                "rpcbench-perflab.txt"}) {
            assertThatThrownBy(() -> formats.parse(Fixtures.read(fixture), null, "with", null)).as(fixture)
                    .hasMessage("The upload has more than 3 metrics (benchmarks × what each reports); split it into "
                            + "several uploads.");
        }
        assertThatThrownBy(() -> formats.parse("{\"benchmark\":\"b\",\"metrics\":{\"a\":[1],\"b\":[1],\"c\":[1],"
                + "\"d\":[1]}}", UploadFormat.JSON, "with", null)).hasMessageContaining("more than 3 metrics");
    }

    @Test
    void defaultLimitIsTenThousandMetrics() {
        StringBuilder go = new StringBuilder("pkg: example.com/many\n");
        for (int i = 0; i <= 10_000; i++) {
            go.append("BenchmarkCase").append(i).append("-2   \t     100\t        5.0 ns/op\n");
        }
        assertThatThrownBy(() -> new UploadFormats().parse(go.toString(), UploadFormat.GOBENCH, "with", null))
                .hasMessageContaining("more than 10000 metrics");
    }

    @Test
    void twoFilesTogetherAreHeldToTheLimitsOfOneUpload() {
        // each file alone is within 1,000,000 samples; together they are not
        List<Double> values = new ArrayList<>(Collections.nCopies(600_000, 1.0));
        ParsedUpload without = ParsedUpload.single("b", ParsedUpload.WITHOUT, null,
                Map.of("t", new MetricSamples("ns", false, values)));
        ParsedUpload with = ParsedUpload.single("b", ParsedUpload.WITH, null,
                Map.of("t", new MetricSamples("ns", false, values)));
        assertThatThrownBy(() -> UploadValidator.validate(ParsedUpload.pair(without, with), null, null, GitInfo.NONE,
                Map.of(), JsonMapper.builder().build()))
                .hasMessageContaining("more than 1000000 samples");
    }
}
