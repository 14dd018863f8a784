package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.experiment.MetricDefinition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One metric, one unit, in every format that carries units: a value without a unit is neither pooled with values in
 * one nor compared with them, unless the format has a default unit for it, which is then the unit compared. Go's
 * units are part of the key ({@code Join:ns/op}) and a value without one is refused as a line that is not
 * value/unit pairs, so Go has no case here.
 */
class UploadUnitsTests {

    private static final String POOLED = "a value without a unit cannot be pooled with values in one";
    private static final String COMPARED = "its values cannot be compared";

    private final UploadFormats formats = new UploadFormats();

    private static ValidUpload validated(ParsedUpload parsed, Map<String, MetricDefinition> known) {
        return UploadValidator.validate(parsed, "units", null, GitInfo.NONE, known, JsonContent.MAPPER);
    }

    private static String jmhEntry(String unitField) {
        return "{\"benchmark\":\"a.B.m\",\"mode\":\"avgt\",\"primaryMetric\":{" + unitField
                + "\"rawData\":[[1,2]]}}";
    }

    private static String googleBenchmarkEntry(String timeUnit) {
        return "{\"name\":\"BM_a\",\"run_type\":\"iteration\",\"real_time\":3,\"cpu_time\":3" + timeUnit + "}";
    }

    @Test
    void csvValueWithoutAUnitIsNotPooledWithValuesInOne() {
        // 1.6 without a unit was pooled with 1500 ms as a third millisecond value
        assertThatThrownBy(() -> formats.parse("metric,value,unit\nt,1500,ms\nt,1.6,\n", UploadFormat.CSV, "with",
                null)).isInstanceOf(InvalidUploadException.class)
                .hasMessageStartingWith("CSV line 3: metric 't' has no unit here and unit 'ms' before; ")
                .hasMessageContaining(POOLED);
        assertThatThrownBy(() -> formats.parse("metric,value,unit\nt,1.6,\nt,1500,ms\n", UploadFormat.CSV, "with",
                null)).isInstanceOf(InvalidUploadException.class)
                .hasMessageStartingWith("CSV line 3: metric 't' has unit 'ms' here and no unit before; ");
        // values that all have no unit are alike
        assertThat(formats.parse("metric,value,unit\nt,1,\nt,2,\n", UploadFormat.CSV, "with", null).variants()
                .get("with").metrics().get("t").unit()).isNull();
    }

    @Test
    void csvSidesOfAMetricWithAndWithoutAUnitAreNotCompared() {
        ParsedUpload parsed = formats.parse("metric,value,variant,unit\nt,1,without,ms\nt,2,without,ms\n"
                + "t,1,with,\nt,2,with,\n", UploadFormat.CSV, "with", null);
        assertThatThrownBy(() -> validated(parsed, Map.of())).isInstanceOf(InvalidUploadException.class)
                .hasMessageStartingWith("Metric 't' has unit 'ms' in 'without' and no unit in 'with'; ")
                .hasMessageContaining(COMPARED);
    }

    @Test
    void jmhEntryWithoutAScoreUnitIsNotPooledWithOneThatHasIt() {
        for (String noUnit : List.of("", "\"scoreUnit\":\"\",", "\"scoreUnit\":null,")) {
            String jmh = "[" + jmhEntry("\"scoreUnit\":\"us/op\",") + "," + jmhEntry(noUnit) + "]";
            assertThatThrownBy(() -> formats.parse(jmh, UploadFormat.JMH, "with", null))
                    .as(noUnit).isInstanceOf(InvalidUploadException.class)
                    .hasMessageStartingWith("JMH entry 2: metric 'B.m' has no unit here and unit 'us/op' before; ")
                    .hasMessageContaining(POOLED);
        }
        // the same in two files: their sides are not compared
        List<ParsedUpload> sides = formats.parseSides("[" + jmhEntry("\"scoreUnit\":\"us/op\",") + "]",
                "[" + jmhEntry("") + "]", UploadFormat.JMH);
        assertThatThrownBy(() -> validated(ParsedUpload.pair(sides.get(0), sides.get(1)), Map.of()))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessageStartingWith("Metric 'B.m' has unit 'us/op' in 'without' and no unit in 'with'; ");
    }

    @Test
    void googleBenchmarkEntryWithoutATimeUnitIsInItsDefaultNanoseconds() {
        // Google Benchmark's default time unit is ns: an entry that does not say one is in ns, whatever the others
        String json = "{\"context\":{},\"benchmarks\":[" + googleBenchmarkEntry(",\"time_unit\":\"ms\"") + ","
                + googleBenchmarkEntry("NO_UNIT") + "]}";
        for (String noUnit : List.of("", ",\"time_unit\":\"\"", ",\"time_unit\":null")) {
            assertThatThrownBy(() -> formats.parse(json.replace("NO_UNIT", noUnit), UploadFormat.GOOGLEBENCHMARK,
                    "with", null)).as(noUnit).isInstanceOf(InvalidUploadException.class)
                    .hasMessageStartingWith("Google Benchmark entry 2: metric 'BM_a:real_time' has unit 'ns' here "
                            + "and unit 'ms' before; ");
            ParsedUpload alike = formats.parse(json.replace("\"ms\"", "\"ns\"").replace("NO_UNIT", noUnit),
                    UploadFormat.GOOGLEBENCHMARK, "with", null);
            assertThat(alike.variants().get("with").metrics().get("BM_a:real_time").unit()).as(noUnit)
                    .isEqualTo("ns");
        }
    }

    @Test
    void nativeJsonSidesOfAMetricWithAndWithoutAUnitAreNotCompared() {
        for (String noUnit : List.of("", "\"unit\": \"\", ")) {
            ParsedUpload parsed = formats.parse("{\"without\": {\"metrics\": {\"parse\": {\"unit\": \"ms\", "
                    + "\"values\": [1, 2]}}}, \"with\": {\"metrics\": {\"parse\": {" + noUnit
                    + "\"values\": [1, 2]}}}}", UploadFormat.JSON, "with", null);
            assertThatThrownBy(() -> validated(parsed, Map.of())).as(noUnit)
                    .isInstanceOf(InvalidUploadException.class)
                    .hasMessageStartingWith("Metric 'parse' has unit 'ms' in 'without' and no unit in 'with'; ")
                    .hasMessageContaining(COMPARED);
        }
    }

    @Test
    void aKnownMetricWithoutAUnitIsInItsDefinedUnit() {
        // the metric's definition is the default: a side that says no unit is in req/s, as the other side says
        Map<String, MetricDefinition> known = Map.of("reqs_per_sec",
                new MetricDefinition("reqs_per_sec", "req/s", true, 0, ""));
        String json = "{\"without\": {\"metrics\": {\"reqs_per_sec\": {\"values\": [1, 2]}}}, "
                + "\"with\": {\"metrics\": {\"reqs_per_sec\": {\"unit\": \"UNIT\", \"values\": [1, 2]}}}}";
        ValidUpload valid = validated(formats.parse(json.replace("UNIT", "req/s"), UploadFormat.JSON, "with", null),
                known);
        assertThat(valid.metrics().get("reqs_per_sec").unit()).isEqualTo("req/s");
        assertThatThrownBy(() -> validated(formats.parse(json.replace("UNIT", "req/min"), UploadFormat.JSON, "with",
                null), known)).isInstanceOf(InvalidUploadException.class)
                .hasMessageStartingWith("Metric 'reqs_per_sec' has unit 'req/s' in 'without' and unit 'req/min' in "
                        + "'with'; ");
    }
}
