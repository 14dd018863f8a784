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
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tomcat's own error answers — for requests it refuses before any servlet sees them, such as a header larger than
 * the server allows or a malformed request line — as {@code application/problem+json} instead of Tomcat's HTML
 * page, so that an API client always gets the same error shape: a 400 with its {@code errors[]}, as every 400 has.
 *
 * <p>A path that is not %-escaped UTF-8 ({@code /experiments/%FF}, {@code /experiments/%G1}) is refused by Tomcat
 * too, before it is given to the application; its refusal is handed to the application's error page instead, which
 * says so, as the error page or a problem as the client asks. It got this valve's answer, for a browser too, which
 * spoke of encoded slashes and oversized headers.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    /** What a 400 of Tomcat's own says: it does not tell which rule the request broke. */
    static final String REFUSED = "This request is refused: its path holds a character the server does not accept "
            + "(such as an encoded slash or backslash), or its request line or headers are malformed or larger than "
            + "the server accepts (all headers together at most 8 KiB).";

    private final JsonMapper json;

    /** @param json writes the problems, as it writes every other problem */
    public ProblemErrorReportValve(JsonMapper json) {
        this.json = json;
    }

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
        try {
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(json.writeValueAsString(problem(status, request.getRequestURI())));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            response.getCoyoteResponse().action(ActionCode.CLOSE_NOW, e);
        }
    }

    /**
     * The problem of a refusal of {@code status} of a request for {@code path}: a 400 as every other 400, its one
     * error of the request as a whole saying what was wrong ({@link ProblemErrors}); another status its reason.
     */
    static ProblemDetail problem(int status, String path) {
        if (status == HttpStatus.BAD_REQUEST.value()) {
            String undecodable = UndecodableParameters.pathMessage(path);
            return ProblemErrors.badRequest(null, undecodable != null ? undecodable : REFUSED);
        }
        HttpStatus known = HttpStatus.resolve(status);
        String reason = known == null ? "Error" : known.getReasonPhrase();
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(status), reason);
        problem.setTitle(reason);
        return problem;
    }
}
