package io.perflab.display.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static io.perflab.Occurrences.count;

import io.perflab.runner.experiment.VariantName;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The charts as text: what they draw, where, and that every piece of text is escaped. */
class ChartsTests {

    private static final String HOSTILE = "<img src=x onerror=alert(1)>&\"'";

    @Test
    void ticksAreOneTwoOrFiveTimesAPowerOfTenAndCoverTheRange() {
        assertThat(Scale.ticks(16.2, 20.4, 6, false)).containsExactly(17.0, 18.0, 19.0, 20.0);
        assertThat(Scale.ticks(-12.6, 6.6, 8, false)).containsExactly(-10.0, -5.0, 0.0, 5.0);
        assertThat(Scale.ticks(0, 23, 6, true)).containsExactly(0.0, 5.0, 10.0, 15.0, 20.0);
        assertThat(Scale.ticks(3.49, 3.67, 6, false)).hasSizeBetween(3, 10)
                .allSatisfy(t -> assertThat(t).isBetween(3.49, 3.67));
    }

    @Test
    void everyTextIsEscapedAndEveryChartHasATextAlternative() {
        String box = BoxPlot.draw("s", HOSTILE, "<u>", new double[] {1, 2, 3}, new double[] {2, 3, 4});
        String order = RunOrderPlot.draw("o", HOSTILE, "us", List.of(
                new RunOrderPlot.Point(0, VariantName.WITHOUT, 1), new RunOrderPlot.Point(1, VariantName.WITH, 2)));
        String forest = ForestPlot.draw("f", List.of(new ForestPlot.Row(HOSTILE, 1.0, -1.0, 3.0, "inconclusive",
                false)), 1, "95%");

        for (String svg : List.of(box, order, forest)) {
            assertThat(svg).doesNotContain("<img", "<u>").contains("&lt;img src=x onerror=alert(1)&gt;&amp;")
                    .containsPattern("<title id=\"\\w+-title\">").containsPattern("<desc id=\"\\w+-desc\">")
                    .startsWith("<svg ").endsWith("</svg>");
        }
        assertThat(box).contains("&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39; (&lt;u&gt;)</text>");
    }

    @Test
    void boxPlotLabelsEachVariantAndDrawsTukeyWhiskersWithTheOutliersBeyondThem() {
        double[] without = {10, 11, 12, 13, 14, 40};
        String svg = BoxPlot.draw("b", "m", "us", without, new double[] {9, 10, 11, 12, 13, 14});

        assertThat(svg).contains(">without (n = 6)</text>", ">with (n = 6)</text>")
                .contains("without: 40 (outlier)").doesNotContain("with: 9 (outlier)")
                .contains("without: n = 6, median 12.5, quartiles 11.25 to 13.75, mean 16.67, 1 outlier");
        // q1 = 11.25, q3 = 13.75: the fences are 7.5 and 17.5, so the upper whisker ends at 14, not at 40
        Tukey tukey = Tukey.of(without);
        assertThat(tukey.highFence()).isEqualTo(17.5);
        assertThat(tukey.highWhisker()).isEqualTo(14);
        assertThat(tukey.lowWhisker()).isEqualTo(10);
        assertThat(tukey.outliers()).isEqualTo(1);
    }

    @Test
    void largeSamplesAreDrawnAtEvenlySpacedRanksWithEveryOutlier() {
        double[] values = IntStream.range(0, 1000).mapToDouble(i -> i % 100).toArray();
        values[0] = 10_000;

        double[] shown = Tukey.of(values).thinned(BoxPlot.MAX_POINTS);

        assertThat(shown).hasSize(BoxPlot.MAX_POINTS + 1).contains(10_000.0, 0.0, 99.0);
        String svg = BoxPlot.draw("b", "m", "us", values, new double[0]);
        assertThat(count(svg, "<circle")).isEqualTo(BoxPlot.MAX_POINTS + 1);
        assertThat(svg).contains("101 of the samples drawn", ">with (n = 0)</text>");
    }

    @Test
    void runOrderPlotDrawsEveryKthRunOfALongPlan() {
        List<RunOrderPlot.Point> points = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            points.add(new RunOrderPlot.Point(i, i % 2 == 0 ? VariantName.WITHOUT : VariantName.WITH, i));
        }

        String svg = RunOrderPlot.draw("o", "m", "us", points);

        // 250 runs a variant: every 3rd, 84 marks each, and one in the legend
        assertThat(count(svg, "<circle")).isEqualTo(84 + 1);
        assertThat(count(svg, "<rect")).isEqualTo(84 + 1);
        assertThat(svg).contains("500 runs (168 drawn: every k-th run of each variant)");
    }

    @Test
    void forestPlotKeepsAFivePercentChangeReadableBesideAHugeOutlier() {
        List<ForestPlot.Row> rows = List.of(
                new ForestPlot.Row("user_cpu_us_per_req", -5.0, -7.0, -3.0, "improved", true),
                new ForestPlot.Row("sys_cpu_us_per_req", 5.0, 3.0, 7.0, "regressed", true),
                new ForestPlot.Row("latency_p99_us", 2300.0, 800.0, 3800.0, "regressed", false));

        String svg = ForestPlot.draw("f", rows, 1, "95%");

        List<Double> points = circleCentres(svg);
        assertThat(points).hasSize(2);
        // −5 % and +5 % lie more than a third of the 380 px plot apart; the outlier is an arrow at the edge
        assertThat(points.get(1) - points.get(0)).isGreaterThan(380 / 3.0);
        assertThat(svg).contains("latency_p99_us: +2300.00% [+800.00%, +3800.00%] (beyond the axis)")
                .contains(">+2300.00% regressed</text>", ">-5.00% improved</text>")
                .contains("log-ratio scale");
    }

    @Test
    void forestPlotAxisIsSymmetricInRatios() {
        Frame frame = new Frame(760, 200, 210, 170, 14, 46);
        Scale x = ForestPlot.axis(List.of(new ForestPlot.Row("m", 0.0, -50.0, 100.0, "inconclusive", true)), 1,
                frame);

        // halving and doubling are equally far from no change
        assertThat(x.at(ForestPlot.ratio(100)) - x.at(0)).isCloseTo(x.at(0) - x.at(ForestPlot.ratio(-50)),
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(ForestPlot.ticks(x)).contains(-50.0, 0.0, 100.0).hasSizeLessThanOrEqualTo(9);
    }

    @Test
    void degenerateDataDrawsWithoutNaN() {
        String constant = BoxPlot.draw("c", "m", "us", new double[] {5, 5, 5}, new double[] {5});
        String empty = BoxPlot.draw("e", "m", "us", new double[] {}, new double[] {0});
        String oneRun = RunOrderPlot.draw("r", "m", "us", List.of(new RunOrderPlot.Point(0, VariantName.WITH, 0)));
        String unbounded = ForestPlot.draw("f", List.of(
                new ForestPlot.Row("a", 400.0, null, null, "inconclusive", false),
                new ForestPlot.Row("b", null, null, null, "inconclusive", false),
                new ForestPlot.Row("c", -100.0, -100.0, -90.0, "improved", false)), 1, "95%");

        for (String svg : List.of(constant, empty, oneRun, unbounded)) {
            assertThat(svg).startsWith("<svg ").endsWith("</svg>").doesNotContain("NaN", "Infinity");
        }
        assertThat(unbounded).contains("not comparable");
    }

    private static List<Double> circleCentres(String svg) {
        List<Double> xs = new ArrayList<>();
        Matcher m = Pattern.compile("<circle cx=\"([-0-9.]+)\"").matcher(svg);
        while (m.find()) {
            xs.add(Double.parseDouble(m.group(1)));
        }
        return xs;
    }
}
