package io.perflab.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SvgChartsTests {

    @Test
    void ticksAreOneTwoOrFiveTimesAPowerOfTenAndCoverTheRange() {
        assertThat(SvgCharts.ticks(16.2, 20.4, 6, false)).containsExactly(17.0, 18.0, 19.0, 20.0);
        assertThat(SvgCharts.ticks(-12.6, 6.6, 8, false)).containsExactly(-10.0, -5.0, 0.0, 5.0);
        assertThat(SvgCharts.ticks(0, 23, 6, true)).containsExactly(0.0, 5.0, 10.0, 15.0, 20.0);
        assertThat(SvgCharts.ticks(3.49, 3.67, 6, false)).hasSizeBetween(3, 10).allSatisfy(
                t -> assertThat(t).isBetween(3.49, 3.67));
    }

    @Test
    void everyTextIsEscapedAndTheChartHasATextAlternative() {
        String name = "<img src=x onerror=alert(1)>&\"'";
        String strip = SvgCharts.stripBox("s", name, "<u>", new double[] {1, 2, 3}, new double[] {2, 3, 4});
        String order = SvgCharts.runOrder("o", name, "us", List.of(new SvgCharts.RunPoint(0, "without", 1),
                new SvgCharts.RunPoint(1, "with", 2)));
        String forest = SvgCharts.forest("f", List.of(new SvgCharts.ForestRow(name, 1.0, -1.0, 3.0, "inconclusive")),
                1, "95%");

        for (String svg : List.of(strip, order, forest)) {
            assertThat(svg).doesNotContain("<img", "<u>").contains("&lt;img src=x onerror=alert(1)&gt;&amp;")
                    .containsPattern("<title id=\"\\w+-title\">").containsPattern("<desc id=\"\\w+-desc\">");
        }
        assertThat(strip).contains("&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39; (&lt;u&gt;)</text>");
    }

    @Test
    void degenerateDataDrawsWithoutNaN() {
        String constant = SvgCharts.stripBox("c", "m", "us", new double[] {5, 5, 5}, new double[] {5});
        String empty = SvgCharts.stripBox("e", "m", "us", new double[] {}, new double[] {0});
        String oneRun = SvgCharts.runOrder("r", "m", "us", List.of(new SvgCharts.RunPoint(0, "with", 0)));
        String unbounded = SvgCharts.forest("f", List.of(
                new SvgCharts.ForestRow("a", 400.0, null, null, "inconclusive"),
                new SvgCharts.ForestRow("b", null, null, null, "inconclusive")), 1, "95%");

        for (String svg : List.of(constant, empty, oneRun, unbounded)) {
            assertThat(svg).startsWith("<svg ").endsWith("</svg>").doesNotContain("NaN", "Infinity");
        }
        assertThat(unbounded).contains("not comparable");
    }
}
