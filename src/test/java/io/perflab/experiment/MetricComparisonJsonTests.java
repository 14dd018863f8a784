package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The composed comparison keeps the API's flat JSON: the same fields, in the same order, as before it. */
class MetricComparisonJsonTests {

    @Test
    void partsStandSideBySideInTheJson() {
        MetricComparison c = new MetricComparison(
                new MetricComparison.Metric("user_cpu_us_per_req", "us", "lower", "User CPU"),
                new MetricComparison.Groups(6, 6, 10.0, 9.5, 0.2, 0.3),
                new MetricComparison.Change(-0.5, -0.8, -0.2, -5.0, -7.9, -2.0),
                new MetricComparison.Tests(-3.4, 9.1, 0.007, 0.02, 0.01, -0.5, -1.9),
                "improved", "p = 0.02 after Holm", List.of("need ≥ 6 runs"),
                new MetricComparison.Sensitivity(3.1, 150L), null);

        JsonNode json = JsonMapper.builder().build().valueToTree(c);
        List<String> fields = new ArrayList<>(json.propertyNames());

        assertThat(fields).containsExactly("metric", "unit", "direction", "description", "nWithout", "nWith",
                "meanWithout", "meanWith", "sdWithout", "sdWith", "difference", "differenceCiLow",
                "differenceCiHigh", "percent", "ciLowPercent", "ciHighPercent", "t", "df", "pValue", "holmPValue",
                "mannWhitneyPValue", "hodgesLehmann", "cohenD", "verdict", "reason", "warnings", "mdePercent",
                "runsPerVariantFor1Percent", "error");
        assertThat(json.get("metric").asString()).isEqualTo("user_cpu_us_per_req");
        assertThat(json.get("percent").asDouble()).isEqualTo(-5.0);
        assertThat(json.get("runsPerVariantFor1Percent").asLong()).isEqualTo(150);
    }
}
