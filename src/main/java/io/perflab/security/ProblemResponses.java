package io.perflab.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.InsufficientAuthenticationException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.csrf.CsrfException;
import java.net.URI;
import org.springframework.http.ProblemDetail;
import tools.jackson.databind.json.JsonMapper;

/** Security failures on the API as {@code application/problem+json} (401 and 403) with a useful detail. */
final class ProblemResponses implements AuthenticationEntryPoint, AccessDeniedHandler {

    private final JsonMapper json;

    ProblemResponses(JsonMapper json) {
        this.json = json;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException ex)
            throws IOException {
        String detail = ex instanceof InsufficientAuthenticationException
                ? "This request needs authentication: send 'Authorization: Bearer <API token>'."
                : ex.getMessage();
        response.setHeader("WWW-Authenticate", "Bearer realm=\"perflab\"");
        write(response, HttpStatus.UNAUTHORIZED, detail, request.getRequestURI());
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException ex)
            throws IOException {
        String detail = ex instanceof CsrfException
                ? "This request came with a session cookie but without a CSRF token; API clients should send "
                        + "'Authorization: Bearer <API token>' instead."
                : "Your credentials do not allow this request: it needs an administrator.";
        write(response, HttpStatus.FORBIDDEN, detail, request.getRequestURI());
    }

    private void write(HttpServletResponse response, HttpStatus status, String detail, String path)
            throws IOException {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setInstance(URI.create(path));
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(json.writeValueAsString(problem));
    }
}
