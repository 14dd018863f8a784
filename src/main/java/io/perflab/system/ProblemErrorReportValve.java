package io.perflab.system;

import jakarta.servlet.ServletException;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.apache.catalina.Container;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpStatus;

/**
 * Tomcat's own error answers — for requests it refuses before any servlet sees them, such as a header larger than
 * the server allows or a malformed request line — as {@code application/problem+json} instead of Tomcat's HTML
 * page, so that an API client always gets the same error shape.
 *
 * <p>A path that is not %-escaped UTF-8 ({@code /experiments/%FF}, {@code /experiments/%G1}) is refused by Tomcat
 * too, before it is given to the application; its refusal is handed to the application's error page instead, which
 * says so, as the error page or a problem as the client asks. It got this valve's answer, for a browser too, which
 * spoke of encoded slashes and oversized headers.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        String message = request.getContext() == null && response.isError()
                && response.getStatus() == HttpStatus.BAD_REQUEST.value()
                ? UndecodableParameters.pathMessage(request.getRequestURI()) : null;
        Context application = message == null ? null : application(request.getRequestURI());
        if (application != null) {
            // Tomcat found no application for the path it could not decode: the host's valve then renders the
            // application's error page for the refusal, as it does for one the application made
            response.getCoyoteResponse().setMessage(message);
            request.getMappingData().context = application;
        }
        super.invoke(request, response);
    }

    /** The application whose path {@code uri} lies under, or null. */
    private Context application(String uri) {
        Context found = null;
        for (Container child : getContainer().findChildren()) {
            if (child instanceof Context context && context.getState().isAvailable()
                    && (context.getPath().isEmpty() || uri.equals(context.getPath())
                            || uri.startsWith(context.getPath() + "/"))
                    && (found == null || context.getPath().length() > found.getPath().length())) {
                found = context;
            }
        }
        return found;
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? "Error" : known.getReasonPhrase();
        String undecodable = status == 400 ? UndecodableParameters.pathMessage(request.getRequestURI()) : null;
        String detail = undecodable != null ? undecodable.replace("\\", "\\\\").replace("\"", "\\\"")
                : status == 400
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
