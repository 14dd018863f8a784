package io.perflab.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * Slice test of the analyze API. Security filters are left out here: anonymous access through the real filter
 * chain is covered by {@link AnalyzeAnonymousAccessTests}.
 */
@WebMvcTest(AnalyzeController.class)
@AutoConfigureMockMvc(addFilters = false)
class AnalyzeControllerTests {

    @Autowired
    MockMvc mvc;

    private ResultActions analyze(String body, MediaType accept) throws Exception {
        return mvc.perform(post("/api/v1/analyze").contentType(MediaType.APPLICATION_JSON).accept(accept)
                .content(body));
    }

    /** The with/without samples of a reference case in cases.txt as a request body. */
    static String body(String caseName, String extra) throws IOException {
        return body("/stats/cases.txt", caseName, extra);
    }

    private static String body(String resource, String caseName, String extra) throws IOException {
        try (InputStream in = AnalyzeControllerTests.class.getResourceAsStream(resource)) {
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].equals("case " + caseName)) {
                    return "{\"with\":" + array(lines[i + 1]) + ",\"without\":" + array(lines[i + 2]) + extra + "}";
                }
            }
        }
        throw new IllegalArgumentException(caseName);
    }

    private static String array(String line) {
        return Arrays.stream(line.split(" ")).skip(1).collect(Collectors.joining(",", "[", "]"));
    }

    private static String r(String name) throws IOException {
        try (InputStream in = AnalyzeControllerTests.class.getResourceAsStream("/stats/print/" + name + ".txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void returnsTheComparisonAsJson() throws Exception {
        // Expected: R 4.2.2 t.test(with, without) of case unequal_variances (src/test/resources/stats/cases.txt);
        // relative tolerances 1e-12 (1e-10 for p)
        analyze(body("unequal_variances", ""), MediaType.APPLICATION_JSON)
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.with.n").value(40))
                .andExpect(jsonPath("$.without.mean").value(closeTo(17.904773346290728, 1e-12), Double.class))
                .andExpect(jsonPath("$.welch.t").value(closeTo(-5.2360302510771373, 1e-11), Double.class))
                .andExpect(jsonPath("$.welch.df").value(closeTo(59.455926612876503, 1e-10), Double.class))
                .andExpect(jsonPath("$.welch.pValue").value(closeTo(2.2569682322673347e-06, 2.3e-16), Double.class))
                .andExpect(jsonPath("$.welch.ciLow").value(closeTo(-1.2962117461018214, 1e-12), Double.class))
                .andExpect(jsonPath("$.welch.stderr").value(closeTo(0.1791162985229352, 1e-13), Double.class))
                .andExpect(jsonPath("$.student.df").value(78.0))
                .andExpect(jsonPath("$.mannWhitney.w").value(331.0))
                .andExpect(jsonPath("$.mannWhitney.method").value("Wilcoxon rank sum exact test"))
                .andExpect(jsonPath("$.effectSize.cohenD").value(closeTo(-1.170811957365377, 1e-12), Double.class))
                .andExpect(jsonPath("$.relativeChange.percent")
                        .value(closeTo(-5.2380353517367695, 1e-11), Double.class))
                .andExpect(jsonPath("$.verdict.verdict").value("improved"))
                .andExpect(jsonPath("$.warnings").isArray());
    }

    @Test
    void valuesFarFromOneGiveTheFiguresOfTheirScaleOrNull() throws Exception {
        // R 4.2.2 t.test(c(1, 2, 3), c(4, 5, 7)): df 3.4482758620689666, t -3.1622776601683791, p 0.041914517471454013;
        // scaled by 1e±100 the figures are the same, but stderr⁴ overflowed (underflowed) and df was NaN, a 400
        for (String scale : new String[] {"e100", "e-100"}) {
            analyze("{\"with\":[1" + scale + ",2" + scale + ",3" + scale + "],\"without\":[4" + scale + ",5" + scale
                    + ",7" + scale + "]}", MediaType.APPLICATION_JSON)
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.welch.df").value(closeTo(3.4482758620689666, 1e-12), Double.class))
                    .andExpect(jsonPath("$.welch.t").value(closeTo(-3.1622776601683791, 1e-12), Double.class))
                    .andExpect(jsonPath("$.welch.pValue").value(closeTo(0.041914517471454013, 1e-13), Double.class));
        }
        // a baseline of subnormal numbers: the change in percent is not a finite number, so null (was "Infinity")
        analyze("{\"with\":[1,2],\"without\":[1e-310,2e-310]}", MediaType.APPLICATION_JSON)
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.relativeChange.percent").value(nullValue()))
                .andExpect(jsonPath("$.power.minimumDetectableEffectPercent").value(nullValue()));
    }

    @Test
    void oneSidedIntervalsHaveNullForTheOpenEnd() throws Exception {
        analyze(body("n3_vs_2_less", ",\"alternative\":\"less\",\"confidenceLevel\":0.9"), MediaType.APPLICATION_JSON)
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.welch.ciLow").value(nullValue()))
                .andExpect(jsonPath("$.welch.ciHigh").value(closeTo(-1.0035452850166489, 1e-12), Double.class))
                .andExpect(jsonPath("$.alternative").value("less"));
    }

    // Expected: R 4.2.2 print(t.test(with, without, ...)) captured by reference.R into print/<case>.welch.txt
    @Test
    void textPlainIsRsPrintOut() throws Exception {
        String[][] cases = {
            {"unequal_variances", ""},
            {"context_switches", ""}, // p-value < 2.2e-16
            {"n2_vs_3", ""}, // n = 2 vs 3
            {"n3_vs_2_less", ",\"alternative\":\"less\",\"confidenceLevel\":0.9"},
            {"outliers", ",\"alternative\":\"greater\",\"confidenceLevel\":0.99"},
            {"offset_1e9", ",\"alternative\":\"two.sided\""},
            {"tiny_p_near_1e_300", ""},
        };
        for (String[] c : cases) {
            String text = analyze(body(c[0], c[1]), MediaType.TEXT_PLAIN).andExpect(status().isOk())
                    .andExpect(content().contentTypeCompatibleWith(MediaType.TEXT_PLAIN))
                    .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8);
            assertThat(text).as(c[0]).isEqualTo(r(c[0] + ".welch"));
        }
    }

    // Expected: R 4.2.2 t.test(with, without, paired = TRUE) of paired_cases.txt (paired_reference.R); relative
    // tolerances 1e-12
    @Test
    void pairedAddsThePairedTestBesideTheOthers() throws Exception {
        analyze(body("/stats/paired_cases.txt", "duet_cpu", ",\"paired\":true"), MediaType.APPLICATION_JSON)
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.welch.t").isNumber())
                .andExpect(jsonPath("$.paired.method").value("Paired t-test"))
                .andExpect(jsonPath("$.paired.t").value(closeTo(-4.9697492740356095, 5e-12), Double.class))
                .andExpect(jsonPath("$.paired.df").value(16.0))
                .andExpect(jsonPath("$.paired.pValue").value(closeTo(0.0001391080757443457, 1.4e-16), Double.class))
                .andExpect(jsonPath("$.paired.ciLow").value(closeTo(-1.0839979999234413, 1.1e-12), Double.class))
                .andExpect(jsonPath("$.paired.ciHigh").value(closeTo(-0.4357370499326732, 4.4e-13), Double.class))
                .andExpect(jsonPath("$.paired.difference").value(closeTo(-0.7598675249280572, 7.6e-13), Double.class))
                .andExpect(jsonPath("$.paired.stderr").value(closeTo(0.15289856349453587, 1.5e-13), Double.class));
        analyze(body("/stats/paired_cases.txt", "less_0.9", ",\"paired\":true,\"alternative\":\"less\","
                + "\"confidenceLevel\":0.9"), MediaType.APPLICATION_JSON)
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.paired.ciLow").value(nullValue()))
                .andExpect(jsonPath("$.paired.ciHigh").value(closeTo(-0.0096415299220891301, 1e-14), Double.class));
        analyze(body("unequal_variances", ""), MediaType.APPLICATION_JSON)
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.paired").doesNotExist());
    }

    // Expected: R 4.2.2 print(t.test(with, without, paired = TRUE, ...)) captured by paired_reference.R into
    // print/<case>.paired.txt
    @Test
    void pairedTextPlainIsRsPairedPrintOut() throws Exception {
        String[][] cases = {
            {"duet_cpu", ""},
            {"tiny_p", ""}, // p-value < 2.2e-16
            {"n2", ""},
            {"less_0.9", ",\"alternative\":\"less\",\"confidenceLevel\":0.9"},
            {"greater_0.99", ",\"alternative\":\"greater\",\"confidenceLevel\":0.99"},
            {"offset_1e9", ""},
        };
        for (String[] c : cases) {
            String text = analyze(body("/stats/paired_cases.txt", c[0], ",\"paired\":true" + c[1]),
                    MediaType.TEXT_PLAIN).andExpect(status().isOk())
                    .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8);
            assertThat(text).as(c[0]).isEqualTo(r(c[0] + ".paired"));
        }
    }

    @Test
    void pairedNeedsEqualLengthsAndABoolean() throws Exception {
        badRequest("{\"with\":[1,2,3],\"without\":[1,2],\"paired\":true}",
                "paired: 'with' has 3 values and 'without' 2");
        badRequest("{\"with\":[1,2],\"without\":[1,3],\"paired\":\"yes\"}", "paired must be true or false");
        // R 4.2.2: "data are essentially constant" for with = without + 2 (paired_cases.txt, constant_difference)
        badRequest("{\"with\":[3,4.5,6,9,11.25],\"without\":[1,2.5,4,7,9.25],\"paired\":true}",
                "data are essentially constant");
        analyze("{\"with\":[1,2,3],\"without\":[1,2],\"paired\":false}", MediaType.APPLICATION_JSON)
                .andExpect(status().isOk());
    }

    private void badRequest(String body, String detail) throws Exception {
        analyze(body, MediaType.APPLICATION_JSON)
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value(containsString(detail)));
    }

    /** README: every refused body names the field in errors[]; analyze's refusals said it in their detail only. */
    @Test
    void eachRefusalNamesItsFieldInErrors() throws Exception {
        String[][] cases = {
            {"{\"with\":[1,2,3]}", "without"},
            {"{\"with\":[1,\"x\",3],\"without\":[1,2]}", "with[1]"},
            {"{\"with\":[1],\"without\":[1,2]}", "with"},
            {"{\"with\":[1,2],\"without\":[1,3],\"confidenceLevel\":1.5}", "confidenceLevel"},
            {"{\"with\":[1,2],\"without\":[1,3],\"alternative\":\"sideways\"}", "alternative"},
            {"{\"with\":[1,2],\"without\":[1,3],\"margin\":-1}", "margin"},
            {"{\"with\":[1,2],\"without\":[1,3],\"better\":\"faster\"}", "better"},
            {"{\"with\":[1,2,3],\"without\":[1,2],\"paired\":true}", "paired"},
            {"{\"with\":[1,2],\"without\":[1,3],\"conf\":0.9}", "conf"},
        };
        for (String[] c : cases) {
            analyze(c[0], MediaType.APPLICATION_JSON)
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.errors[0].field").value(c[1]))
                    .andExpect(jsonPath("$.errors[0].message").value(containsString(c[1])));
        }
        // the body as a whole names none
        analyze("[1,2]", MediaType.APPLICATION_JSON).andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").doesNotExist())
                .andExpect(jsonPath("$.errors[0].message").value(containsString("JSON object")));
        // nor do both samples together, which the statistics cannot compare; they said it in the detail only
        for (MediaType accept : List.of(MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN)) {
            analyze("{\"with\":[3,3,3],\"without\":[5,5]}", accept).andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.errors[0].field").doesNotExist())
                    .andExpect(jsonPath("$.errors[0].message").value(containsString("data are essentially constant")));
            analyze("{\"with\":[3,4.5,6,9,11.25],\"without\":[1,2.5,4,7,9.25],\"paired\":true}", accept)
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.errors[0].field").value("paired"))
                    .andExpect(jsonPath("$.errors[0].message").value(containsString("data are essentially constant")));
        }
    }

    @Test
    void rejectsMissingFieldsNamingThem() throws Exception {
        badRequest("{\"with\":[1,2,3]}", "'without' is missing");
        badRequest("{\"with\":[1,2,3],\"without\":{}}", "'without' must be an array");
        badRequest("[1,2]", "JSON object");
    }

    @Test
    void rejectsNonNumbersNaNAndInfinity() throws Exception {
        badRequest("{\"with\":[1,\"x\",3],\"without\":[1,2]}", "with[1] is not a number");
        badRequest("{\"with\":[1,2,3],\"without\":[1,null]}", "without[1] is not a number");
        badRequest("{\"with\":[1,2,3],\"without\":[1,\"NaN\"]}", "without[1] is not a number");
        badRequest("{\"with\":[1,2,1e999],\"without\":[1,2]}", "with[2] is too large");
        badRequest("{\"with\":[1,2,NaN],\"without\":[1,2]}", "not valid JSON");
        badRequest("{\"with\":[1,2,Infinity],\"without\":[1,2]}", "not valid JSON");
    }

    @Test
    void rejectsTooFewConstantDataAndBadOptions() throws Exception {
        badRequest("{\"with\":[1],\"without\":[1,2]}", "'with' has 1 value: need at least 2");
        badRequest("{\"with\":[3,3,3],\"without\":[5,5]}", "data are essentially constant");
        badRequest("{\"with\":[1,2],\"without\":[1,3],\"confidenceLevel\":1.5}", "confidenceLevel must be between");
        badRequest("{\"with\":[1,2],\"without\":[1,3],\"confidenceLevel\":\"high\"}",
                "confidenceLevel is not a number");
        badRequest("{\"with\":[1,2],\"without\":[1,3],\"alternative\":\"sideways\"}", "alternative: unknown");
        badRequest("{\"with\":[1,2],\"without\":[1,3],\"margin\":-1}", "margin must be a positive");
        badRequest("{\"with\":[1,2],\"without\":[1,3],\"conf\":0.9}", "unknown field 'conf'");
        // its escape, as messages show such characters: it was "unknown field '<script>x?'"
        badRequest("{\"with\":[1,2],\"without\":[1,3],\"<script>x\\u001b\":0.9}",
                "unknown field '<script>x\\u001B'");
        badRequest("{\"with\":[1,2],", "not valid JSON");
    }

    @Test
    void acceptsTwoDotSidedAndReportsErrorsAsProblemJsonForTextClients() throws Exception {
        analyze("{\"with\":[1,2,4],\"without\":[1,3,5],\"alternative\":\"two.sided\"}", MediaType.APPLICATION_JSON)
                .andExpect(status().isOk()).andExpect(jsonPath("$.alternative").value("two.sided"));
        mvc.perform(post("/api/v1/analyze").contentType(MediaType.APPLICATION_JSON)
                        .accept(MediaType.TEXT_PLAIN, MediaType.APPLICATION_PROBLEM_JSON)
                        .content("{\"with\":[1],\"without\":[1,2]}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value(containsString("'with'")));
    }

    @Test
    void refusesBodiesOver16MiB() throws Exception {
        byte[] big = new byte[AnalyzeController.MAX_BODY_BYTES + 1];
        Arrays.fill(big, (byte) ' ');
        mvc.perform(post("/api/v1/analyze").contentType(MediaType.APPLICATION_JSON).accept(MediaType.APPLICATION_JSON)
                        .content(big))
                .andExpect(status().isContentTooLarge())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value(containsString("16 MiB")));
    }
}
