package io.perflab.analysis;

import io.perflab.stats.Comparison;
import io.perflab.stats.ComparisonResult;
import io.perflab.stats.TTest;
import io.perflab.stats.TTestResult;
import io.perflab.stats.format.HtestPrinter;
import io.perflab.system.ApiProblem;
import io.perflab.system.InvalidInputException;
import io.perflab.system.JsonErrors;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /api/v1/analyze}: stateless comparison of two samples, open to anonymous callers unless
 * {@code perflab.security.anonymous-reads} is false (then a user's or an administrator's). JSON in; JSON
 * out ({@link ComparisonView}), or with {@code Accept: text/plain} R's {@code t.test(with, without)} print-out
 * ({@code t.test(with, without, paired = TRUE)} for {@code "paired": true}, which also adds {@code paired} to the
 * JSON). Bodies over {@value #MAX_BODY_BYTES} bytes (16 MiB) are refused with 413.
 */
@RestController
@RequestMapping("/api/v1/analyze")
class AnalyzeController {

    static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

    private final JsonMapper json;

    /** The summary of both handlers, which the API documentation shows as one operation. */
    static final String SUMMARY = "Compare two samples (Welch, Mann–Whitney, effect size; paired on request); "
            + "R text with Accept: text/plain";

    AnalyzeController(JsonMapper json) {
        this.json = json;
    }

    @Operation(summary = SUMMARY)
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
            mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = AnalyzeSchema.class),
            examples = @ExampleObject(value = """
                    {"with": [16.1, 17.2, 16.5, 16.9, 17.0, 16.4], "without": [18.3, 18.0, 17.1, 17.9, 18.4, 17.6],
                     "confidenceLevel": 0.95, "alternative": "two-sided"}""")))
    ComparisonView analyze(@RequestHeader(value = HttpHeaders.CONTENT_LENGTH, required = false) Long length,
            @Parameter(hidden = true) InputStream body) throws IOException {
        AnalyzeRequest request = AnalyzeRequest.parse(read(length, body));
        ComparisonView view = ComparisonView.of(compare(request));
        return request.paired() ? view.withPaired(paired(request)) : view;
    }

    @Operation(summary = SUMMARY)
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.TEXT_PLAIN_VALUE)
    String analyzeAsR(@RequestHeader(value = HttpHeaders.CONTENT_LENGTH, required = false) Long length,
            @Parameter(hidden = true) InputStream body) throws IOException {
        AnalyzeRequest request = AnalyzeRequest.parse(read(length, body));
        return HtestPrinter.tTest(request.paired() ? paired(request) : compare(request).welch());
    }

    /** The comparison; samples it cannot compare (both essentially constant) are refused as the input's. */
    private static ComparisonResult compare(AnalyzeRequest request) {
        try {
            return Comparison.compare(request.with(), request.without(), request.direction(), request.options());
        } catch (IllegalArgumentException e) {
            throw InvalidInputException.ofSentence(null, e.getMessage());
        }
    }

    /** The paired test; differences it cannot test (essentially constant) are refused as {@code paired}'s. */
    private static TTestResult paired(AnalyzeRequest request) {
        try {
            return TTest.paired(request.with(), request.without(), request.options().alternative(),
                    request.options().confidenceLevel());
        } catch (IllegalArgumentException e) {
            throw InvalidInputException.ofSentence("paired", e.getMessage());
        }
    }

    private JsonNode read(Long length, InputStream body) throws IOException {
        if (length != null && length > MAX_BODY_BYTES) {
            throw tooLarge();
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        byte[] chunk = new byte[64 * 1024];
        int n;
        while ((n = body.read(chunk)) >= 0) {
            if (buffer.size() + n > MAX_BODY_BYTES) {
                throw tooLarge();
            }
            buffer.write(chunk, 0, n);
        }
        if (buffer.size() == 0) {
            throw InvalidInputException.ofSentence(null, "the request body is empty: send {\"with\":[…],"
                    + "\"without\":[…]}");
        }
        try {
            return json.readTree(buffer.toByteArray());
        } catch (JacksonException e) {
            InvalidInputException.FieldProblem problem = JsonErrors.problem(e);
            String said = problem.toString();
            // the words for malformed JSON already say so: "the body is not valid JSON (line 1, column 2)"; a key
            // given twice is named by its path
            throw InvalidInputException.ofSentence(problem.field(), said.startsWith("the body ")
                    ? "The request " + said.substring(4) : "The request body is not valid JSON: " + said);
        }
    }

    private static ApiProblem tooLarge() {
        return new ApiProblem(HttpStatus.CONTENT_TOO_LARGE,
                "the request body exceeds 16 MiB (" + MAX_BODY_BYTES + " bytes): send fewer samples per request");
    }
}
