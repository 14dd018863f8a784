package io.perflab.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a write to the API that a browser says another site's page sent ({@code Sec-Fetch-Site: cross-site}),
 * whatever credentials it carries. A session's writes need its CSRF token already; this holds for the credentials a
 * browser may attach by itself too — basic credentials it keeps for the host after a {@code user:pass@} address —
 * which sign a request in without one. No legitimate client is refused: PerfLab's pages are the same origin, a
 * script on another site cannot send a token across origins without CORS, which PerfLab does not grant, and clients
 * that are no browser send no {@code Sec-Fetch-Site}.
 */
final class CrossSiteWrites extends OncePerRequestFilter {

    /** The methods that change nothing, which neither this nor a CSRF token guards. */
    static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    static final String REFUSAL = "This write was sent by a page of another site (Sec-Fetch-Site: cross-site), "
            + "which PerfLab never takes: send it from PerfLab's own pages, or from a client that is no browser with "
            + "'Authorization: Bearer <API token>'.";

    private final ProblemResponses problems;

    CrossSiteWrites(ProblemResponses problems) {
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!SAFE_METHODS.contains(request.getMethod())
                && "cross-site".equalsIgnoreCase(request.getHeader("Sec-Fetch-Site"))) {
            problems.write(response, HttpStatus.FORBIDDEN, REFUSAL, request.getRequestURI());
            return;
        }
        chain.doFilter(request, response);
    }
}
