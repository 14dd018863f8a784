package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** An upload in curl's default form Content-Type is refused saying what to send, and stores nothing. */
class UploadContentTypeTests extends UploadServer {

    @Test
    void refusesAFormEncodedUploadSayingWhichContentTypeToSend() throws Exception {
        String token = newToken("upload-content-type-tests");
        Map<String, Long> before = rowCounts();
        // curl --data-binary @go.txt: refused by the firewall as "an encoded or relative segment"; a one-line JSON
        // body as "Cannot tell the format … (text starting '%7B%22benchmark%22…')"
        for (String body : new String[] {Fixtures.read("gobench.txt"), "{\"benchmark\":\"mp\",\"metrics\":{}}"}) {
            HttpResponse<String> response = post("/api/v1/uploads?benchmark=mp", token,
                    "application/x-www-form-urlencoded", body);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(415);
            JsonNode problem = read(response.body());
            assertThat(problem.get("detail").asString()).isEqualTo("Content-Type application/x-www-form-urlencoded "
                    + "is not read; send text/plain, application/json or multipart/form-data (curl: -H "
                    + "'Content-Type: text/plain').");
        }
        assertThat(rowCounts()).isEqualTo(before);
    }

    /**
     * An upload without a valid token is answered 401, as any other API write, whatever its Content-Type: sent form
     * encoded it was told 415, so a script fixed its Content-Type only to learn that it lacked a token. The other
     * writes were answered 401 already.
     */
    @Test
    void aFormEncodedUploadWithoutAValidTokenIsUnauthorizedFirst() throws Exception {
        Map<String, Long> before = rowCounts();
        for (String path : new String[] {"/api/v1/uploads?benchmark=mp", "/api/v1/experiments", "/api/v1/agents"}) {
            HttpResponse<String> anonymous = post(path, null, "application/x-www-form-urlencoded",
                    Fixtures.read("gobench.txt"));
            assertThat(anonymous.statusCode()).as(path + ": " + anonymous.body()).isEqualTo(401);
            assertThat(anonymous.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"perflab\"");
            assertThat(read(anonymous.body()).get("detail").asString()).isEqualTo("This request needs "
                    + "authentication: send 'Authorization: Bearer <API token>'.");
        }
        HttpResponse<String> unknownToken = post("/api/v1/uploads", "no-such-token",
                "application/x-www-form-urlencoded", "a=1");
        assertThat(unknownToken.statusCode()).as(unknownToken.body()).isEqualTo(401);
        assertThat(read(unknownToken.body()).get("detail").asString()).startsWith("The bearer token is not valid");
        assertThat(rowCounts()).isEqualTo(before);
    }
}
