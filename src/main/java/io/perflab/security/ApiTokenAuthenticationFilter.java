package io.perflab.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates {@code Authorization: Bearer <token>} on the API. A request that presents a token nobody knows is
 * answered 401 at once, even on an open endpoint: a wrong token is a configuration error worth reporting.
 */
final class ApiTokenAuthenticationFilter extends OncePerRequestFilter {

    private static final String PREFIX = "Bearer ";

    private final List<ApiTokenAuthenticator> authenticators;
    private final ProblemResponses problems;

    ApiTokenAuthenticationFilter(List<ApiTokenAuthenticator> authenticators, ProblemResponses problems) {
        this.authenticators = List.copyOf(authenticators);
        this.problems = problems;
    }

    private static boolean hasBearerToken(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        return header != null && header.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!hasBearerToken(request)) {
            chain.doFilter(request, response);
            return;
        }
        String token = request.getHeader("Authorization").substring(PREFIX.length()).strip();
        try {
            Authentication authentication = authenticate(token)
                    .orElseThrow(() -> new BadCredentialsException("The bearer token is not valid: it is unknown "
                            + "to this server. Create a token under Settings → API tokens."));
            SecurityContextHolder.getContext().setAuthentication(authentication);
        } catch (AuthenticationException e) {
            SecurityContextHolder.clearContext();
            problems.commence(request, response, e);
            return;
        }
        chain.doFilter(request, response);
    }

    private Optional<Authentication> authenticate(String token) {
        if (token.isEmpty()) {
            throw new BadCredentialsException("The Authorization header has 'Bearer' but no token.");
        }
        for (ApiTokenAuthenticator authenticator : authenticators) {
            Optional<Authentication> result = authenticator.authenticate(token);
            if (result.isPresent()) {
                return result;
            }
        }
        return Optional.empty();
    }
}
