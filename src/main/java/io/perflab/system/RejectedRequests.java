package io.perflab.system;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests the security firewall refuses before any controller sees them — a path with {@code ..}, {@code ;}, an
 * encoded slash or a backslash, a header with a control character — answered 400 as a problem that says so, the
 * header at fault as its error's field.
 */
@Component
class RejectedRequests implements RequestRejectedHandler {

    static final String DETAIL = "This request is refused: its path holds an encoded or relative segment (such as "
            + "'..', ';', '%2e', '%2f' or a backslash) or a header or parameter holds a control character. Send the "
            + "plain path, e.g. /api/v1/experiments.";

    /** The firewall's words for a header value it refuses: "… the header: "NAME " has a value …". */
    private static final Pattern HEADER = Pattern.compile("the header: \"(.+?)\" has a value");

    private final JsonMapper json;

    RejectedRequests(JsonMapper json) {
        this.json = json;
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException rejected)
            throws IOException {
        Matcher header = HEADER.matcher(String.valueOf(rejected.getMessage()));
        String name = header.find() ? header.group(1).strip() : null;
        String detail = name != null ? "This request is refused: its header '"
                + PrintableText.Validator.shown(Texts.cut(name, 100)) + "' holds a character a header may not: a "
                + "control character, or a byte of text that is not ASCII (such as UTF-8; a header's bytes are read "
                + "one character each). Send the header's value as printable ASCII." : DETAIL;
        // the header named as the error's field; a path or a parameter the firewall does not name, the request's
        ProblemDetail problem = ProblemErrors.badRequest(name, detail);
        response.setStatus(HttpStatus.BAD_REQUEST.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(json.writeValueAsString(problem));
    }
}
