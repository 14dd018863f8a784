package io.perflab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static io.perflab.Occurrences.count;

import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * User text in every report format shows as text, never as markup: the experiment's name, description, option
 * names and values, a metric name, the environment and a run's error are all hostile here.
 */
class ReportEscapingTests extends ReportTestSupport {

    static final String NAME = "<img src=x onerror=alert(1)>";
    static final String METRIC = "</script><img src=x onerror=alert(4)>";

    static ReportFixtures.Shape hostile() {
        return new ReportFixtures.Shape(NAME, "</script><script>alert(2)</script> \u001b[31mred\u001b[0m",
                Map.of("completion", "monitor", "<i>opt</i>", "a|b"),
                Map.of("completion", "<img src=x onerror=alert(3)>", "<i>opt</i>", "c\nd"), METRIC,
                "<svg onload=alert(5)>", "<img src=x onerror=alert(6)>\nline two | pipe");
    }

    private long id;

    @BeforeEach
    void experiment() {
        id = ReportFixtures.store(store, jdbc, hostile(), 6);
    }

    @Test
    void htmlReportShowsUserTextOnlyEscaped() throws Exception {
        String html = get("/api/v1/experiments/" + id + "/report.html").body();

        assertThat(html.toLowerCase()).doesNotContain("<img", "<svg onload", "<script>", "<i>opt");
        assertThat(html)
                // the name set apart from the title's words (FSI … PDI): a right-to-left name reorders only itself
                .contains("<title>PerfLab experiment " + id
                        + ": \u2068&lt;img src=x onerror=alert(1)&gt;\u2069</title>")
                .contains("<h1>&lt;img src=x onerror=alert(1)&gt;</h1>")
                .contains("&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;")
                .contains("&lt;img src=x onerror=alert(3)&gt;", "&lt;i&gt;opt&lt;/i&gt;")
                .contains("&lt;svg onload=alert(5)&gt;", "&lt;img src=x onerror=alert(6)&gt;")
                // the metric name, in the table, in the charts' text and titles
                .contains("&lt;/script&gt;&lt;img src=x onerror=alert(4)&gt;</span>")
                .contains("<title id=\"forest-title\">")
                .contains("&lt;/script&gt;&lt;img src=x onerror=alert(4)&gt;</text>");
        assertThat(count(html, "</script>")).isEqualTo(1);

        JsonNode samples = JsonMapper.builder().build().readTree(ReportControllerTests.scriptContent(html));
        assertThat(samples.get("experiment").get("name").asText()).isEqualTo(NAME);
        assertThat(samples.get("metrics").has(METRIC)).isTrue();
    }

    @Test
    void markdownReportHasNoRawHtmlAndNoBrokenTable() throws Exception {
        String md = get("/api/v1/experiments/" + id + "/report.md").body();

        assertThat(md.toLowerCase()).doesNotContain("<img", "<svg", "<script", "<i>", "</");
        assertThat(md)
                .startsWith("### PerfLab experiment " + id + ": &lt;img src=x onerror=alert(1)&gt;\n")
                .contains("| &lt;i&gt;opt&lt;/i&gt; | a\\|b | c d |")
                .contains("| completion | monitor | &lt;img src=x onerror=alert(3)&gt; |")
                .contains("| &lt;/script&gt;&lt;img src=x onerror=alert(4)&gt; | ")
                .contains("(without, FAILED) &lt;img src=x onerror=alert(6)&gt;")
                .contains("Description:\n\n> &lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;  \\[31mred \\[0m\n");
        // every row keeps its table's number of cells: option diff (header + 2 options), results (header + 7)
        assertThat(md.lines().filter(l -> l.startsWith("| ")).map(ReportEscapingTests::cells).toList())
                .containsExactly(3, 3, 3, 8, 8, 8, 8, 8, 8, 8, 8);
    }

    /** Cells of a Markdown table row: its unescaped pipes, less one. */
    private static int cells(String row) {
        return row.replace("\\|", "").length() - row.replace("\\|", "").replace("|", "").length() - 1;
    }

    @Test
    void textReportIsPlainTextWithoutControlCharacters() throws Exception {
        HttpResponse<String> response = get("/api/v1/experiments/" + id + "/report.txt");

        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain;charset=UTF-8");
        assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        String txt = response.body();
        assertThat(txt).startsWith("PerfLab experiment " + id + ": " + NAME + "\n")
                .contains("  completion: monitor -> <img src=x onerror=alert(3)>\n", "  <i>opt</i>: a|b -> c d\n")
                .contains(METRIC + " — ")
                .contains("(without, FAILED): <img src=x onerror=alert(6)>\n    line two | pipe")
                .contains(NAME + "\nDescription:\n  # </script><script>alert(2)</script>  [31mred [0m\nStatus: ")
                .doesNotContain("\u001b");
    }

    /**
     * A description of several lines was printed unlabelled under the text report's title, where "Status: COMPLETED,
     * 80 of 80 runs" read as the experiment's own status; the Markdown report left it out. The text report labels it
     * and writes each line as an indented R comment; the Markdown report quotes it, each line literally.
     */
    @Test
    void aDescriptionOfSeveralLinesIsLabelledInTheTextReportAndQuotedLiterallyInTheMarkdownReport()
            throws Exception {
        String description = "Status: COMPLETED, 80 of 80 runs\r\nt = -9.1, df = 78, p-value < 2.2e-16\n\n\n"
                + "# heading\n- not a list\n1. nor this\n===\n    <b>indented</b> \u001b[31m|\n";
        long described = ReportFixtures.store(store, jdbc, new ReportFixtures.Shape("described", description,
                Map.of("completion", "monitor"), Map.of("completion", "notification"), null, "bench-host-1",
                "killed"), 3);

        String txt = get("/api/v1/experiments/" + described + "/report.txt").body();
        assertThat(txt).startsWith("PerfLab experiment " + described + ": described\n"
                + "Description:\n"
                + "  # Status: COMPLETED, 80 of 80 runs\n"
                + "  # t = -9.1, df = 78, p-value < 2.2e-16\n"
                + "  #\n  #\n"
                + "  # # heading\n"
                + "  # - not a list\n"
                + "  # 1. nor this\n"
                + "  # ===\n"
                + "  #     <b>indented</b>  [31m|\n"
                + "Status: COMPLETED, 6 of 6 runs (1 failed)");
        assertThat(txt.lines().filter(line -> line.startsWith("Status: "))).hasSize(1);

        String md = get("/api/v1/experiments/" + described + "/report.md").body();
        assertThat(md).startsWith("### PerfLab experiment " + described + ": described\n\n"
                + "Description:\n\n"
                + "> Status: COMPLETED, 80 of 80 runs\\\n"
                + "> t = -9.1, df = 78, p-value &lt; 2.2e-16\n"
                + ">\n"
                + "> \\# heading\\\n"
                + "> \\- not a list\\\n"
                + "> 1\\. nor this\\\n"
                + "> \\===\\\n"
                + "> &lt;b&gt;indented&lt;/b&gt;  \\[31m\\|\n"
                + "\nCOMPLETED · 6 of 6 runs (1 failed)");

        // the HTML report (as the page) keeps its lines, where they ran into one paragraph
        String html = get("/api/v1/experiments/" + described + "/report.html").body();
        assertThat(html).contains("class=\"lead description\">Status: COMPLETED, 80 of 80 runs\r\nt = -9.1")
                .contains(".description { white-space: pre-line; }");
    }
}
