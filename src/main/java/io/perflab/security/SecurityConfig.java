package io.perflab.security;

import io.perflab.system.PerfLabProperties;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;
import org.springframework.security.web.util.matcher.RequestMatcher;
import tools.jackson.databind.json.JsonMapper;

/**
 * Who may do what. Reading is open: pages, {@code GET} on the API, and the stateless {@code POST /api/v1/analyze}.
 * Everything that changes state needs a signed-in user (dashboard forms, with CSRF) or a bearer API token. The
 * new-experiment form asks for sign-in when it is opened, not when it is sent: only a {@code GET} is kept across
 * sign-in, so a form sent signed out would be lost; an experiment page's "Sign in" link leads back to the page.
 * Managing API tokens (API and page) and deleting (API and page) need an administrator: a signed-in admin or the
 * bootstrap token.
 * Acting as a benchmark agent ({@code POST /api/v1/agents/**}: register, poll, heartbeat, post trials) needs a token of
 * role AGENT or an administrator; an AGENT token does nothing else, and a USER token cannot act as an agent, since an
 * agent's posts become the samples of other people's experiments. README's "Who may do what" is this as a table, and
 * AccessPolicyTests checks every request mapping against it.
 */
@Configuration
class SecurityConfig {

    /** Pages may load scripts and styles from this server only; ECharts sets style attributes on its nodes. */
    /** What a page's form sent without its CSRF token (or with a stale one) is told. */
    static final String FORM_EXPIRED = "This form has expired or was not sent from PerfLab's page; reload it and "
            + "submit again.";

    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; "
            + "style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'self'; "
            + "form-action 'self'; frame-ancestors 'none'";

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    UserDetailsService userDetailsService(UserAccounts users) {
        return username -> users.findByUsername(username)
                .map(u -> User.withUsername(u.username()).password(u.passwordHash()).roles(u.role().name()).build())
                .orElseThrow(() -> new UsernameNotFoundException("no user named " + username));
    }

    /** Passwords of the form and of HTTP Basic, checked through the sign-in throttle. */
    @Bean
    AuthenticationProvider passwordSignIn(UserDetailsService users, PasswordEncoder encoder, SignInThrottle throttle) {
        DaoAuthenticationProvider passwords = new DaoAuthenticationProvider(users);
        passwords.setPasswordEncoder(encoder);
        return new ThrottledAuthenticationProvider(passwords, throttle);
    }

    @Bean
    ApiTokenAuthenticator bootstrapTokenAuthenticator(PerfLabProperties properties) {
        return new BootstrapTokenAuthenticator(properties.security());
    }

    @Bean
    ApiTokenAuthenticator storedTokenAuthenticator(ApiTokens tokens) {
        return new StoredTokenAuthenticator(tokens);
    }

    @Bean
    @Order(1)
    SecurityFilterChain apiSecurity(HttpSecurity http, List<ApiTokenAuthenticator> authenticators, JsonMapper json)
            throws Exception {
        ProblemResponses problems = new ProblemResponses(json);
        http.securityMatcher("/api/**")
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers("/api/v1/tokens", "/api/v1/tokens/**").hasRole("ADMIN")
                        .requestMatchers(HttpMethod.GET, "/api/**").permitAll()
                        .requestMatchers(HttpMethod.HEAD, "/api/**").permitAll()
                        .requestMatchers(HttpMethod.POST, "/api/v1/analyze").permitAll()
                        .requestMatchers(HttpMethod.POST, "/api/v1/agents", "/api/v1/agents/**")
                        .hasAnyRole("AGENT", "ADMIN")
                        .requestMatchers(HttpMethod.DELETE, "/api/**").hasRole("ADMIN")
                        .anyRequest().hasAnyRole("USER", "ADMIN"))
                // A browser sends its session cookie on its own, so writes riding on a session need a CSRF token;
                // a request that signs in itself, with a bearer token or basic credentials, needs none.
                .csrf(csrf -> csrf.requireCsrfProtectionMatcher(cookieAuthenticatedWrite()))
                .addFilterBefore(new ApiTokenAuthenticationFilter(authenticators, problems),
                        BasicAuthenticationFilter.class)
                .httpBasic(basic -> basic.authenticationEntryPoint(problems))
                .exceptionHandling(errors -> errors.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY)));
        return http.build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain pageSecurity(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(requests -> requests
                        .requestMatchers("/login", "/error", "/error/**").permitAll()
                        .requestMatchers("/settings/tokens", "/settings/tokens/**").hasRole("ADMIN")
                        .requestMatchers(HttpMethod.POST, "/experiments/*/delete").hasRole("ADMIN")
                        .requestMatchers(HttpMethod.GET, "/experiments/new", "/experiments/*/sign-in")
                        .authenticated()
                        .requestMatchers(HttpMethod.GET, "/**").permitAll()
                        .requestMatchers(HttpMethod.HEAD, "/**").permitAll()
                        .anyRequest().authenticated())
                .formLogin(form -> form.loginPage("/login").permitAll())
                .logout(logout -> logout.logoutSuccessUrl("/"))
                .exceptionHandling(errors -> errors.accessDeniedHandler(SecurityConfig::pageAccessDenied))
                .headers(headers -> headers
                        .contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                        .referrerPolicy(referrer -> referrer.policy(
                                ReferrerPolicyHeaderWriter.ReferrerPolicy.SAME_ORIGIN)));
        return http.build();
    }

    /** The message of a page's 403; a form without its CSRF token answered a bare "Forbidden". */
    static void pageAccessDenied(HttpServletRequest request, HttpServletResponse response,
            AccessDeniedException refused) throws IOException, ServletException {
        if (refused instanceof CsrfException) {
            response.sendError(HttpServletResponse.SC_FORBIDDEN, FORM_EXPIRED);
        } else {
            new AccessDeniedHandlerImpl().handle(request, response, refused);
        }
    }

    private static RequestMatcher cookieAuthenticatedWrite() {
        return (HttpServletRequest request) -> {
            String method = request.getMethod();
            boolean safe = "GET".equals(method) || "HEAD".equals(method) || "OPTIONS".equals(method)
                    || "TRACE".equals(method);
            return !safe && !signsInItself(request) && request.getRequestedSessionId() != null;
        };
    }

    /**
     * Whether the request brings its own credentials: a bearer token, or basic credentials, which a browser sends
     * on its own only to a server that asked for them (the API's 401 asks for a bearer token). Any other
     * {@code Authorization} header signs nobody in, and left the session's write without its CSRF token.
     */
    private static boolean signsInItself(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        return header != null && (header.regionMatches(true, 0, "Bearer ", 0, 7)
                || header.regionMatches(true, 0, "Basic ", 0, 6));
    }
}
