package io.perflab.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses a request whose headers the service cannot honour, with a problem that says which and why, before any
 * handler reads it:
 * <ul>
 *   <li>an {@code Accept} header that is not a list of media types ({@code garbage}, {@code a/b/c},
 *       {@code text/html;q=x}): 400, its error's field the header. Past this filter content negotiation fails on such
 *       a header, and then even the error's problem cannot be written: the client got an empty 406 or 404;</li>
 *   <li>a {@code Content-Encoding} other than {@code identity}: 415. The service reads bodies as they come, so a
 *       gzipped upload was refused as "not valid UTF-8", and a plain body that claimed gzip was stored.</li>
 * </ul>
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
class RequestHeadersFilter extends OncePerRequestFilter {

    private final JsonMapper json;

    RequestHeadersFilter(JsonMapper json) {
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        for (String accept : Collections.list(request.getHeaders(HttpHeaders.ACCEPT))) {
            try {
                MediaType.parseMediaTypes(accept);
            } catch (InvalidMediaTypeException e) {
                refuse(response, HttpStatus.BAD_REQUEST, "The Accept header is not a list of media types such as "
                        + "'application/json, text/csv;q=0.5': "
                        + PrintableText.Validator.shown(Texts.cut(e.getMessage(), 300)), HttpHeaders.ACCEPT);
                return;
            }
        }
        for (String encodings : Collections.list(request.getHeaders(HttpHeaders.CONTENT_ENCODING))) {
            for (String encoding : encodings.split(",")) {
                String name = encoding.strip();
                if (!name.isEmpty() && !name.equalsIgnoreCase("identity")) {
                    refuse(response, HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Encoding '"
                            + PrintableText.Validator.shown(Texts.cut(name, 60)) + "' is not supported: send the body "
                            + "as it is, without a Content-Encoding header", null);
                    return;
                }
            }
        }
        chain.doFilter(request, response);
    }

    /** Answers {@code status} with {@code detail}; a 400 names the {@code header} at fault as its error's field. */
    private void refuse(HttpServletResponse response, HttpStatus status, String detail, String header)
            throws IOException {
        ProblemDetail problem = status == HttpStatus.BAD_REQUEST ? ProblemErrors.badRequest(header, detail)
                : ProblemDetail.forStatusAndDetail(status, detail);
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(json.writeValueAsString(problem));
    }
}
