package io.perflab.runner.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTests {

    @Test
    void writesAndReadsBackNestedValues() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("name", "tab\there \"quoted\" \\ é \u0001");
        value.put("count", 42L);
        value.put("ratio", 0.125);
        value.put("whole", 3.0);
        value.put("ok", true);
        value.put("nothing", null);
        value.put("list", List.of(1L, "two", Map.of("three", 3L)));
        value.put("empty", Map.of());

        String text = Json.write(value);

        assertThat(Json.parse(text)).isEqualTo(value);
        assertThat(Json.parse(Json.writePretty(value))).isEqualTo(value);
        assertThat(text).startsWith("{\"name\":\"tab\\there \\\"quoted\\\" \\\\ é \\u0001\",\"count\":42,");
    }

    @Test
    void writesNonFiniteNumbersAsNull() {
        assertThat(Json.write(Arrays.asList(Double.NaN, Double.POSITIVE_INFINITY, 1e300)))
                .isEqualTo("[null,null,1.0E300]");
    }

    @Test
    void reportsWhereTheTextIsBroken() {
        assertThatThrownBy(() -> Json.parse("{\"a\": 1,}")).isInstanceOf(JsonException.class)
                .hasMessage("expected a member name at offset 8");
        assertThatThrownBy(() -> Json.parse("[1 2]")).hasMessage("expected ',' or ']' at offset 3");
        assertThatThrownBy(() -> Json.parseObject("[]")).hasMessage("expected a JSON object, got ArrayList");
        assertThatThrownBy(() -> Json.parse("{} x")).hasMessage("unexpected text after the value at offset 3");
    }
}
