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
}
