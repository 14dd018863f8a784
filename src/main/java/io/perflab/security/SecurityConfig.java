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
import org.springframework.security.web.savedrequest.NullRequestCache;
import org.springframework.security.web.util.matcher.RequestMatcher;
import tools.jackson.databind.json.JsonMapper;

/**
 * Who may do what. Reading is open by default: pages, {@code GET} on the API, the API document, the metrics, and the
 * stateless {@code POST /api/v1/analyze}. With {@code perflab.security.anonymous-reads=false} the instance is private:
 * only the sign-in page, its styles and scripts, and {@code /actuator/health} (for load balancers) stay open; every
 * other page needs a signed-in user, and every read of the API, the API document and the rest of the actuator (the
 * metrics a Prometheus scrapes with a token) a user or an administrator, as the analysis does. An AGENT token reads
 * nothing there: the agent protocol reads nothing but the answers to its posts.
 * Everything that changes state needs a signed-in user (dashboard forms, with CSRF) or a bearer API token. The
 * new-experiment form asks for sign-in when it is opened, not when it is sent: only a {@code GET} is kept across
 * sign-in, so a form sent signed out would be lost; an experiment page's "Sign in" link leads back to the page.
 * Managing API tokens (API and page) and deleting (API and page) need an administrator: a signed-in admin or the
 * bootstrap token.
 * Acting as a benchmark agent ({@code POST /api/v1/agents/**}: register, poll, heartbeat, post trials) needs a token of
 * role AGENT or an administrator; an AGENT token does nothing else, and a USER token cannot act as an agent, since an
 * agent's posts become the samples of other people's experiments. A token counts where machines call: the API, the
 * API document and the actuator ({@link #MACHINE_PATHS}), which refuse with a problem; on a page its caller is a
 * visitor, sent to sign in. README's "Who may do what" is this as a table, and AccessPolicyTests (with
 * PrivateAccessPolicyTests for a private instance) checks every request mapping against it.
 */
@Configuration
class SecurityConfig {

    /** What a page's form sent without its CSRF token (or with a stale one) is told. */
    static final String FORM_EXPIRED = "This form has expired or was not sent from PerfLab's page; reload it and "
            + "submit again.";

    /** Where machines call, with a token: answered as the API is, 401 and 403 as problems. */
    static final String[] MACHINE_PATHS = {"/api/**", "/v3/api-docs", "/v3/api-docs.yaml", "/v3/api-docs/**",
        "/actuator", "/actuator/**"};

    /** Open on a private instance too: a load balancer's health checks. */
    static final String[] HEALTH = {"/actuator/health", "/actuator/health/**"};

    /** Open on a private instance too: what the sign-in page loads (there is no favicon, but browsers ask). */
    static final String[] SIGN_IN_ASSETS = {"/css/**", "/js/**", "/favicon.ico"};

    /** Pages may load scripts and styles from this server only; ECharts sets style attributes on its nodes. */
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
    SecurityFilterChain apiSecurity(HttpSecurity http, List<ApiTokenAuthenticator> authenticators, JsonMapper json,
            PerfLabProperties properties) throws Exception {
        boolean anonymousReads = properties.security().anonymousReads();
        ProblemResponses problems = new ProblemResponses(json);
        http.securityMatcher(MACHINE_PATHS)
                .authorizeHttpRequests(requests -> {
                    requests.requestMatchers("/api/v1/tokens", "/api/v1/tokens/**").hasRole("ADMIN")
                            .requestMatchers(HttpMethod.GET, HEALTH).permitAll()
                            .requestMatchers(HttpMethod.HEAD, HEALTH).permitAll();
                    if (anonymousReads) {
                        requests.requestMatchers(HttpMethod.GET, MACHINE_PATHS).permitAll()
                                .requestMatchers(HttpMethod.HEAD, MACHINE_PATHS).permitAll()
                                .requestMatchers(HttpMethod.POST, "/api/v1/analyze").permitAll();
                    }
                    requests.requestMatchers(HttpMethod.POST, "/api/v1/agents", "/api/v1/agents/**")
                            .hasAnyRole("AGENT", "ADMIN")
                            .requestMatchers(HttpMethod.DELETE, "/api/**").hasRole("ADMIN")
                            .anyRequest().hasAnyRole("USER", "ADMIN");
                })
                // A browser sends its session cookie on its own, so writes riding on a session need a CSRF token;
                // a request that signs in itself, with a bearer token or basic credentials, needs none.
                .csrf(csrf -> csrf.requireCsrfProtectionMatcher(cookieAuthenticatedWrite()))
                .addFilterBefore(new ApiTokenAuthenticationFilter(authenticators, problems),
                        BasicAuthenticationFilter.class)
                .addFilterBefore(new CrossSiteWrites(problems), ApiTokenAuthenticationFilter.class)
                .httpBasic(basic -> basic.authenticationEntryPoint(problems))
                // nobody is sent to sign in from here, so a refused read is not kept for after it (in a new session)
                .requestCache(cache -> cache.requestCache(new NullRequestCache()))
                .exceptionHandling(errors -> errors.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(
                        CONTENT_SECURITY_POLICY)));
        return http.build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain pageSecurity(HttpSecurity http, PerfLabProperties properties) throws Exception {
        boolean anonymousReads = properties.security().anonymousReads();
        http.authorizeHttpRequests(requests -> {
                    requests.requestMatchers("/login", "/error", "/error/**").permitAll()
                            .requestMatchers(HttpMethod.GET, SIGN_IN_ASSETS).permitAll()
                            .requestMatchers(HttpMethod.HEAD, SIGN_IN_ASSETS).permitAll()
                            .requestMatchers("/settings/tokens", "/settings/tokens/**").hasRole("ADMIN")
                            .requestMatchers(HttpMethod.POST, "/experiments/*/delete").hasRole("ADMIN")
                            .requestMatchers(HttpMethod.GET, "/experiments/new", "/experiments/*/sign-in")
                            .authenticated();
                    if (anonymousReads) {
                        requests.requestMatchers(HttpMethod.GET, "/**").permitAll()
                                .requestMatchers(HttpMethod.HEAD, "/**").permitAll();
                    }
                    requests.anyRequest().authenticated();
                })
                .formLogin(form -> form.loginPage("/login").permitAll())
                // on a private instance "/" would send the signed-out user straight back to sign in, unsaid
                .logout(logout -> logout.logoutSuccessUrl(anonymousReads ? "/" : "/login?logout"))
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
            return !CrossSiteWrites.SAFE_METHODS.contains(request.getMethod()) && !signsInItself(request)
                    && request.getRequestedSessionId() != null;
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
