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
        try (InputStream in = AnalyzeControllerTests.class.getResourceAsStream("/stats/cases.txt")) {
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
                .andExpect(jsonPath("$.relativeChange.percent").value(closeTo(-5.2380353517367695, 1e-11), Double.class))
                .andExpect(jsonPath("$.verdict.verdict").value("improved"))
                .andExpect(jsonPath("$.warnings").isArray());
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

    private void badRequest(String body, String detail) throws Exception {
        analyze(body, MediaType.APPLICATION_JSON)
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value(containsString(detail)));
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
        badRequest("{\"with\":[1,2],\"without\":[1,3],\"confidenceLevel\":\"high\"}", "confidenceLevel is not a number");
        badRequest("{\"with\":[1,2],\"without\":[1,3],\"alternative\":\"sideways\"}", "alternative: unknown");
        badRequest("{\"with\":[1,2],\"without\":[1,3],\"margin\":-1}", "margin must be a positive");
        badRequest("{\"with\":[1,2],\"without\":[1,3],\"conf\":0.9}", "unknown field 'conf'");
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
