package io.perflab.system;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests the security firewall refuses before any controller sees them — a path with {@code ..}, {@code ;}, an
 * encoded slash or a backslash, a header with a control character — answered 400 as a problem that says so.
 */
@Component
class RejectedRequests implements RequestRejectedHandler {

    static final String DETAIL = "This request is refused: its path holds an encoded or relative segment (such as "
            + "'..', ';', '%2e', '%2f' or a backslash) or a header or parameter holds a control character. Send the "
            + "plain path, e.g. /api/v1/experiments.";

    private final JsonMapper json;

    RejectedRequests(JsonMapper json) {
        this.json = json;
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException rejected)
            throws IOException {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, DETAIL);
        response.setStatus(HttpStatus.BAD_REQUEST.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(json.writeValueAsString(problem));
    }
}
