package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.perflab.upload.UploadServer;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A 400's {@code errors[].field} that is the client's own text — a query parameter, a JSON field or a header that no
 * request takes — is shown the same way whichever check refused it (a handler, the filter of undecodable parameters
 * and the error page, the security firewall): each character that is not printable, the line and paragraph separators
 * too, written as its escape, at most 300 characters in all, cut with "…". The query's refusals cut it to 60
 * characters before its escapes, a JSON field's answered it whole, thousands of characters, and the firewall's cut it
 * to 100.
 */
class ProblemErrorFieldsTests extends UploadServer {

    /** A name that no request takes, with a control character, a line separator and markup, 1,000 characters long. */
    private static final String HOSTILE = "<script>\u0001\u2028" + "x".repeat(990);

    /** {@link #HOSTILE} as every field shows it: 20 characters of escapes and markup, 279 x and "…". */
    private static final String HOSTILE_SHOWN = "<script>\\u0001\\u2028" + "x".repeat(279) + "…";

    /** A name a header may have (no control character, no markup), 1,000 characters long. */
    private static final String LONG = "X-Perflab-" + "y".repeat(990);

    private static final String LONG_SHOWN = "X-Perflab-" + "y".repeat(289) + "…";

    @Autowired
    private RejectedRequests rejectedRequests;

    @Test
    void aFieldOfTheClientsTextIsEscapedAndCutAlikeByEveryRefusal() throws Exception {
        Map<String, String> fields = new LinkedHashMap<>();
        String name = URLEncoder.encode(HOSTILE, StandardCharsets.UTF_8);
        fields.put("a query parameter no request takes", field(get("/api/v1/experiments?" + name + "=1")));
        fields.put("a query parameter that is not UTF-8", field(get("/api/v1/experiments?" + name + "=%FF")));
        ObjectNode body = json.createObjectNode();
        body.put(HOSTILE, 1);
        fields.put("a JSON field no request takes", field(post("/api/v1/experiments", ADMIN_TOKEN,
                "application/json", body.toString())));
        fields.put("a field the analysis takes no", field(post("/api/v1/analyze", ADMIN_TOKEN,
                "application/json", body.toString())));
        assertThat(fields).allSatisfy((what, field) -> assertThat(field).as(what).isEqualTo(HOSTILE_SHOWN));
    }

    /**
     * A header is refused by the firewall only where a handler reads it (an upload's {@code Idempotency-Key}), so its
     * refusal is made here as the firewall makes it, of a header of any name.
     */
    @Test
    void aHeaderTheFirewallRefusesIsCutAsAQueryParameterIs() throws Exception {
        assertThat(field(get("/api/v1/experiments?" + LONG + "=1"))).isEqualTo(LONG_SHOWN);
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/uploads");
        // a value of UTF-8 bytes, read one character each
        request.addHeader(LONG, "a\u00e2\u0080\u0094b");
        RequestRejectedException rejected = catchThrowableOfType(RequestRejectedException.class,
                () -> new StrictHttpFirewall().getFirewalledRequest(request).getHeader(LONG));
        MockHttpServletResponse response = new MockHttpServletResponse();
        rejectedRequests.handle(request, response, rejected);
        assertThat(response.getStatus()).as(rejected.getMessage()).isEqualTo(400);
        assertThat(read(response.getContentAsString(StandardCharsets.UTF_8)).at("/errors/0/field").asString())
                .isEqualTo(LONG_SHOWN);
    }

    /** The field of a 400 problem's one error. */
    private String field(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
        assertThat(answer.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        JsonNode errors = read(answer.body()).path("errors");
        assertThat(errors.size()).as(answer.body()).isEqualTo(1);
        return errors.get(0).path("field").asString();
    }
}
