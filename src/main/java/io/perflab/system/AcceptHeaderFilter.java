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
 * Refuses a request whose {@code Accept} header is not a list of media types ({@code garbage}, {@code a/b/c},
 * {@code text/html;q=x}) with 400 and a problem that says so. Past this filter content negotiation fails on such
 * a header, and then even the error's problem cannot be written: the client got an empty 406 or 404.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
class AcceptHeaderFilter extends OncePerRequestFilter {

    private final JsonMapper json;

    AcceptHeaderFilter(JsonMapper json) {
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        for (String accept : Collections.list(request.getHeaders(HttpHeaders.ACCEPT))) {
            try {
                MediaType.parseMediaTypes(accept);
            } catch (InvalidMediaTypeException e) {
                ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "The Accept header "
                        + "is not a list of media types such as 'application/json, text/csv;q=0.5': "
                        + PrintableText.Validator.shown(Texts.cut(e.getMessage(), 300)));
                response.setStatus(HttpStatus.BAD_REQUEST.value());
                response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
                response.setCharacterEncoding("UTF-8");
                response.getWriter().write(json.writeValueAsString(problem));
                return;
            }
        }
        chain.doFilter(request, response);
    }
}
