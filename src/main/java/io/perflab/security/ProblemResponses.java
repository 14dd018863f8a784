package io.perflab.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.InsufficientAuthenticationException;
import org.springframework.security.authorization.AuthorityAuthorizationDecision;
import org.springframework.security.authorization.AuthorizationDeniedException;
import org.springframework.security.core.GrantedAuthority;
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
                : "Your credentials do not allow this request" + needed(ex) + ".";
        write(response, HttpStatus.FORBIDDEN, detail, request.getRequestURI());
    }

    /**
     * What the rule that refused the request asks for, from the roles of its decision ({@code hasRole} and
     * {@code hasAnyRole} in {@link SecurityConfig}): ": it needs an agent or an administrator"; empty for a rule
     * that names no roles.
     */
    static String needed(AccessDeniedException refusal) {
        if (!(refusal instanceof AuthorizationDeniedException denied)
                || !(denied.getAuthorizationResult() instanceof AuthorityAuthorizationDecision decision)
                || decision.getAuthorities().isEmpty()) {
            return "";
        }
        // the rule keeps its roles as a set: in a fixed order, an administrator last
        List<String> who = decision.getAuthorities().stream().map(GrantedAuthority::getAuthority)
                .sorted(Comparator.comparing((String role) -> role.equals("ROLE_ADMIN"))
                        .thenComparing(Comparator.naturalOrder()))
                .map(ProblemResponses::who).toList();
        return ": it needs " + (who.size() == 1 ? who.get(0)
                : String.join(", ", who.subList(0, who.size() - 1)) + " or " + who.get(who.size() - 1));
    }

    private static String who(String authority) {
        return switch (authority) {
            case "ROLE_ADMIN" -> "an administrator";
            case "ROLE_USER" -> "a user (signed in, or a token of role user)";
            case "ROLE_AGENT" -> "an agent (a token of role agent)";
            default -> "the authority " + authority;
        };
    }

    /** Answers {@code status} as a problem saying {@code detail} about {@code path}. */
    void write(HttpServletResponse response, HttpStatus status, String detail, String path)
            throws IOException {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setInstance(URI.create(path));
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(json.writeValueAsString(problem));
    }
}
