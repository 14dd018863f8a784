package io.perflab.upload;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses an upload sent as {@code application/x-www-form-urlencoded}, curl's Content-Type for
 * {@code --data-binary @bench.txt}, with 415 saying what to send. Read as a form, the output became parameters:
 * its line breaks were refused by the firewall as control characters in a parameter, and a one-line JSON body
 * reached the reader %-encoded ("text starting '%7B%22benchmark%22…'"). It runs after the security filters, so that
 * an upload without a valid token is answered 401 whatever its Content-Type (it was told 415 first, as if a
 * Content-Type were all it lacked), and before anything reads the form (the security filters do not for a token's
 * request), so the firewall never sees its lines and nothing is stored.
 */
@Component
@Order(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 1)
class FormEncodedUploadFilter extends OncePerRequestFilter {

    static final String DETAIL = "Content-Type application/x-www-form-urlencoded is not read; send text/plain, "
            + "application/json or multipart/form-data (curl: -H 'Content-Type: text/plain').";

    private final JsonMapper json;

    FormEncodedUploadFilter(JsonMapper json) {
        this.json = json;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !"POST".equals(request.getMethod())
                || !request.getRequestURI().equals(request.getContextPath() + "/api/v1/uploads")
                || !formEncoded(request.getContentType());
    }

    private static boolean formEncoded(String contentType) {
        try {
            return contentType != null
                    && MediaType.APPLICATION_FORM_URLENCODED.includes(MediaType.parseMediaType(contentType));
        } catch (InvalidMediaTypeException e) {
            // answered where the Content-Type is read
            return false;
        }
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.UNSUPPORTED_MEDIA_TYPE, DETAIL);
        response.setStatus(HttpStatus.UNSUPPORTED_MEDIA_TYPE.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(json.writeValueAsString(problem));
    }
}
