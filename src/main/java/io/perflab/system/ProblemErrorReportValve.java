package io.perflab.system;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpStatus;

/**
 * Tomcat's own error answers — for requests it refuses before any servlet sees them, such as a header larger than
 * the server allows or a malformed request line — as {@code application/problem+json} instead of Tomcat's HTML
 * page, so that an API client always gets the same error shape.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? "Error" : known.getReasonPhrase();
        String detail = status == 400
                ? "This request is refused: its path holds a character the server does not accept (such as an "
                        + "encoded slash or backslash), or its request line or headers are malformed or larger than "
                        + "the server accepts (all headers together at most 8 KiB)."
                : title;
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"type\":\"about:blank\",\"title\":\"" + title + "\",\"status\":" + status
                        + ",\"detail\":\"" + detail + "\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            response.getCoyoteResponse().action(ActionCode.CLOSE_NOW, e);
        }
    }
}
