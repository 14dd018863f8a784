package io.perflab.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.upload.UploadServer;
import java.io.InputStream;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;

/**
 * Who may do what (README, "Who may do what"), held here as data ({@link #POLICY}) and checked against every handler
 * mapping of the running service (its controllers', Actuator's and the API documentation's), for each kind of caller:
 * here with anonymous reads (the default), in {@link PrivateAccessPolicyTests} on a private instance.
 * A mapping the policy does not list fails, as does a rule that no mapping has any more: a new endpoint gets its place
 * in the policy on purpose. The requests name ids that nothing has (999999) and send empty bodies, so that what
 * security lets through is answered 400 or 404 and stores nothing; "allowed" is any answer but a refusal of the
 * caller (401, 403, or on a page the way to sign-in), "refused" is exactly that refusal.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AccessPolicyTests extends UploadServer {

    /**
     * {@code METHOD PATH PUBLIC PRIVATE}, a mapping for every method as {@code *}: who may, with anonymous reads
     * ({@code perflab.security.anonymous-reads}, true by default) and on a private instance (false). Access:
     * {@code everyone}; {@code users}, a signed-in user or admin, a token of role user or the bootstrap token;
     * {@code owners}, as users on an experiment the caller started (a token: one it started itself, not one a revoked
     * token of its name started), an admin's only on another's; {@code agents}, a token of role agent or an admin;
     * {@code admins}, a signed-in admin or the bootstrap token.
     * Outside the API, the API document and the actuator a token is no credential: its caller is a visitor there.
     */
    static final String POLICY = """
            GET    /                                                         everyone  users
            GET    /login                                                    everyone  everyone
            *      /error                                                    everyone  everyone
            GET    /experiments                                              everyone  users
            GET    /experiments/{id}                                         everyone  users
            GET    /experiments/{id}/results                                 everyone  users
            GET    /experiments/{id}/sign-in                                 users     users
            GET    /experiments/new                                          users     users
            POST   /experiments/new                                          users     users
            POST   /experiments/{id}/cancel                                  owners    owners
            POST   /experiments/{id}/resume                                  owners    owners
            POST   /experiments/{id}/rerun                                   owners    owners
            POST   /experiments/{id}/delete                                  admins    admins
            GET    /benchmarks                                               everyone  users
            GET    /benchmarks/{*path}                                       everyone  users
            GET    /agents                                                   everyone  users
            GET    /settings/tokens                                          admins    admins
            POST   /settings/tokens                                          admins    admins
            POST   /settings/tokens/{id}/revoke                              admins    admins
            GET    /swagger-ui.html                                          everyone  users
            GET    /v3/api-docs                                              everyone  users
            GET    /v3/api-docs.yaml                                         everyone  users
            GET    /v3/api-docs/swagger-config                               everyone  users
            GET    /actuator                                                 everyone  users
            GET    /actuator/health                                          everyone  everyone
            GET    /actuator/health/**                                       everyone  everyone
            GET    /actuator/info                                            everyone  users
            GET    /actuator/prometheus                                      everyone  users

            POST   /api/v1/analyze                                           everyone  users
            GET    /api/v1/experiments                                       everyone  users
            GET    /api/v1/experiments/events                                everyone  users
            GET    /api/v1/experiments/{id}                                  everyone  users
            GET    /api/v1/experiments/{id}/base-comparison                  everyone  users
            GET    /api/v1/experiments/{id}/events                           everyone  users
            GET    /api/v1/experiments/{id}/samples                          everyone  users
            GET    /api/v1/experiments/{id}/report                           everyone  users
            GET    /api/v1/experiments/{id}/report.html                      everyone  users
            GET    /api/v1/experiments/{id}/report.md                        everyone  users
            GET    /api/v1/experiments/{id}/report.txt                       everyone  users
            GET    /api/v1/benchmarks                                        everyone  users
            GET    /api/v1/benchmarks/history                                everyone  users
            GET    /api/v1/benchmarks/{name}/history                         everyone  users
            GET    /api/v1/agents                                            everyone  users
            GET    /api/v1/agents/{id}                                       everyone  users
            POST   /api/v1/experiments                                       users     users
            POST   /api/v1/experiments/{id}/cancel                           owners    owners
            POST   /api/v1/experiments/{id}/resume                           owners    owners
            POST   /api/v1/experiments/{id}/rerun                            owners    owners
            POST   /api/v1/uploads                                           users     users
            DELETE /api/v1/experiments/{id}                                  admins    admins
            POST   /api/v1/agents                                            agents    agents
            POST   /api/v1/agents/{id}/poll                                  agents    agents
            POST   /api/v1/agents/{id}/heartbeat                             agents    agents
            POST   /api/v1/agents/{id}/leave                                 agents    agents
            POST   /api/v1/agents/{id}/experiments/{experimentId}/trials     agents    agents
            POST   /api/v1/agents/{id}/experiments/{experimentId}/pairs      agents    agents
            POST   /api/v1/agents/{id}/experiments/{experimentId}/finish     agents    agents
            GET    /api/v1/tokens                                            admins    admins
            GET    /api/v1/tokens/{id}                                       admins    admins
            POST   /api/v1/tokens                                            admins    admins
            POST   /api/v1/tokens/{id}/revoke                                admins    admins
            DELETE /api/v1/tokens/{id}                                       admins    admins
            """;

    /** An id that names nothing, so that an allowed write finds nothing to act on. */
    private static final String NO_SUCH_ID = "999999";

    enum Access {
        EVERYONE, USERS, OWNERS, AGENTS, ADMINS;

        /** Whether {@code role} may, on what it started where that counts ({@link #OWNERS}). */
        boolean allows(Role role) {
            return switch (this) {
                case EVERYONE -> true;
                case USERS, OWNERS -> role == Role.USER || role == Role.ADMIN;
                case AGENTS -> role == Role.AGENT || role == Role.ADMIN;
                case ADMINS -> role == Role.ADMIN;
            };
        }
    }

    enum Role { VISITOR, USER, AGENT, ADMIN }

    /** Who calls: a visitor (with a session and its CSRF token, as a browser has), a bearer token, a signed-in user. */
    enum Caller {
        VISITOR(Role.VISITOR, false), USER_TOKEN(Role.USER, true), AGENT_TOKEN(Role.AGENT, true),
        BOOTSTRAP_TOKEN(Role.ADMIN, true), USER_SESSION(Role.USER, false), ADMIN_SESSION(Role.ADMIN, false);

        final Role role;
        final boolean token;

        Caller(Role role, boolean token) {
            this.role = role;
            this.token = token;
        }

        /** The name what this caller starts is recorded under; null for callers that start nothing. */
        String starts() {
            return switch (this) {
                case USER_TOKEN -> "token:" + USER_TOKEN_NAME;
                case USER_SESSION -> USER_NAME;
                case BOOTSTRAP_TOKEN -> "bootstrap-token";
                case ADMIN_SESSION -> "admin";
                default -> null;
            };
        }

        /** Pages take no bearer token: its caller is a visitor there. */
        Role roleOn(Endpoint endpoint) {
            return token && endpoint.page() ? Role.VISITOR : role;
        }
    }

    /** One way in: a method (or {@code *}) and path pattern, with what else the mapping asks of a request. */
    record Endpoint(String method, String pattern, Map<String, String> params, MediaType produces,
                    MediaType consumes) {

        String rule() {
            return method + " " + pattern;
        }

        /** A page, where a token is no credential; the API, the API document and the actuator take one. */
        boolean page() {
            return !pattern.startsWith("/api/") && !pattern.startsWith("/v3/api-docs")
                    && !pattern.startsWith("/actuator");
        }

        /** The method sent: a mapping for every method is asked with GET, and with POST where a write is meant. */
        String sent() {
            return "*".equals(method) ? "GET" : method;
        }

        boolean write() {
            return !Set.of("GET", "HEAD", "OPTIONS", "TRACE").contains(sent());
        }

        /** The path with each variable given its value from {@code values}, else {@link #NO_SUCH_ID}. */
        String path(Map<String, String> values) {
            Matcher variable = Pattern.compile("\\{\\*?(\\w+)}|\\*\\*?").matcher(pattern);
            StringBuilder path = new StringBuilder();
            while (variable.find()) {
                String name = variable.group(1);
                String value = name == null ? "none" : values.getOrDefault(name, NO_SUCH_ID);
                variable.appendReplacement(path, Matcher.quoteReplacement(
                        URLEncoder.encode(value, StandardCharsets.UTF_8)));
            }
            variable.appendTail(path);
            String query = params.entrySet().stream().map(p -> p.getKey() + "=" + (p.getValue().isEmpty()
                    ? values.getOrDefault(p.getKey(), NO_SUCH_ID) : p.getValue())).collect(Collectors.joining("&"));
            return path + (query.isEmpty() ? "" : "?" + query);
        }

        @Override
        public String toString() {
            return rule() + (params.isEmpty() ? "" : " " + params) + (produces == null ? "" : " → " + produces)
                    + (consumes == null ? "" : " ← " + consumes);
        }
    }

    record Answer(int status, String location, String body) {

        /** The caller was refused: 401 or 403, or on a page a visitor sent to sign in. */
        boolean refused() {
            return status == 401 || status == 403 || status == 302 && location.endsWith("/login");
        }

        @Override
        public String toString() {
            String shown = body.length() > 160 ? body.substring(0, 160) + "…" : body;
            return status + (location.isEmpty() ? "" : " → " + location) + " " + shown.replaceAll("\\s+", " ");
        }
    }

    /** How a caller sends its requests: a browser (its cookies and CSRF token) or a plain client with a token. */
    record Session(HttpClient client, String csrf, String token) {
    }

    @Autowired
    private ApplicationContext context;

    /** Which column of {@link #POLICY} this context answers by. */
    @Value("${perflab.security.anonymous-reads}")
    private boolean anonymousReads;

    @Autowired
    private UserAccounts users;

    @Autowired
    private PasswordEncoder passwords;

    final Map<Caller, Session> sessions = new EnumMap<>(Caller.class);

    static final String USER_NAME = "access-policy-user";
    static final String USER_TOKEN_NAME = "access-policy-user";

    /**
     * For {@link Access#OWNERS}: a finished upload each caller started, and one that someone none of them is
     * started ({@link #anothersExperiment}): a token of the user token's name, revoked before the user token was
     * created with that name (a token is told by its id, not its name). A cancel, resume or re-run that is let
     * through is refused as the upload has ended.
     */
    final Map<Caller, Map<String, String>> ownExperiments = new EnumMap<>(Caller.class);
    Map<String, String> anothersExperiment;

    @BeforeAll
    void callers() throws Exception {
        String user = USER_NAME;
        String password = "access-policy-password";
        if (users.findByUsername(user).isEmpty()) {
            users.create(user, passwords.encode(password), UserAccounts.Role.USER);
        }
        sessions.put(Caller.VISITOR, visitor());
        newToken(USER_TOKEN_NAME);
        long revoked = liveTokenId(USER_TOKEN_NAME);
        sessions.put(Caller.USER_TOKEN, new Session(http, null, newToken(USER_TOKEN_NAME)));
        sessions.put(Caller.AGENT_TOKEN, new Session(http, null, newAgentToken("access-policy-agent")));
        sessions.put(Caller.BOOTSTRAP_TOKEN, new Session(http, null, ADMIN_TOKEN));
        sessions.put(Caller.USER_SESSION, signedIn(user, password));
        sessions.put(Caller.ADMIN_SESSION, signedIn("admin", adminPassword()));
        anothersExperiment = upload(Caller.USER_TOKEN.starts(), revoked);
        for (Caller caller : Caller.values()) {
            if (caller.starts() != null) {
                ownExperiments.put(caller, upload(caller.starts(),
                        caller == Caller.USER_TOKEN ? liveTokenId(USER_TOKEN_NAME) : null));
            }
        }
    }

    private long liveTokenId(String name) {
        return jdbc.sql("SELECT id FROM api_token WHERE live_name = ?").param(name).query(Long.class).single();
    }

    /**
     * A finished upload recorded as started by {@code startedBy} with stored token {@code startedByToken} (null for
     * none), as the id of a path.
     */
    private Map<String, String> upload(String startedBy, Long startedByToken) throws Exception {
        String benchmark = "access-policy-owned";
        uploadTwoSamples(benchmark);
        long id = jdbc.sql("SELECT MAX(id) FROM experiment WHERE benchmark = ?").param(benchmark).query(Long.class)
                .single();
        jdbc.sql("UPDATE experiment SET created_by = ?, created_by_token = ? WHERE id = ?")
                .params(startedBy, startedByToken, id).update();
        return Map.of("id", Long.toString(id));
    }

    /** Every handler mapping of the service, one endpoint per method, pattern and request condition. */
    List<Endpoint> endpoints() {
        List<Endpoint> endpoints = new ArrayList<>();
        for (RequestMappingInfoHandlerMapping mapping
                : context.getBeansOfType(RequestMappingInfoHandlerMapping.class).values()) {
            for (var handler : mapping.getHandlerMethods().entrySet()) {
                RequestMappingInfo info = handler.getKey();
                Set<String> methods = info.getMethodsCondition().getMethods().stream().map(Enum::name)
                        .collect(Collectors.toCollection(TreeSet::new));
                if (methods.isEmpty()) {
                    methods.add("*");
                }
                Map<String, String> params = new LinkedHashMap<>();
                info.getParamsCondition().getExpressions().stream().filter(p -> !p.isNegated())
                        .forEach(p -> params.put(p.getName(), p.getValue() == null ? "" : p.getValue()));
                MediaType produces = info.getProducesCondition().getProducibleMediaTypes().stream().findFirst()
                        .orElse(null);
                MediaType consumes = info.getConsumesCondition().getConsumableMediaTypes().stream().findFirst()
                        .orElse(null);
                for (String method : methods) {
                    for (String pattern : info.getPatternValues()) {
                        endpoints.add(new Endpoint(method, pattern, params, produces, consumes));
                    }
                }
            }
        }
        endpoints.sort(Comparator.comparing(Endpoint::toString));
        return endpoints;
    }

    /** The rules of {@link #POLICY} for this context: its column for anonymous reads on, or off. */
    Map<String, Access> policy() {
        Map<String, Access> rules = new LinkedHashMap<>();
        POLICY.lines().map(String::strip).filter(line -> !line.isEmpty()).forEach(line -> {
            String[] fields = line.split("\\s+");
            assertThat(fields).as("a method, a path, who may with anonymous reads and who without: " + line)
                    .hasSize(4);
            Access previous = rules.put(fields[0] + " " + fields[1],
                    Access.valueOf(fields[anonymousReads ? 2 : 3].toUpperCase()));
            assertThat(previous).as("listed twice: " + line).isNull();
        });
        return rules;
    }

    @Test
    void everyMappingIsInThePolicyAndEveryRuleIsAMapping() {
        Set<String> mapped = endpoints().stream().map(Endpoint::rule).collect(Collectors.toCollection(TreeSet::new));
        Set<String> listed = new TreeSet<>(policy().keySet());

        assertThat(difference(mapped, listed)).as("mappings the policy does not list: add each to POLICY and to "
                + "README's \"Who may do what\"").isEmpty();
        assertThat(difference(listed, mapped)).as("rules for mappings the service no longer has").isEmpty();
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> rest = new TreeSet<>(a);
        rest.removeAll(b);
        return rest;
    }

    @Test
    void eachCallerIsAllowedWhatThePolicyAllowsItAndRefusedTheRest() throws Exception {
        Map<String, Access> policy = policy();
        Map<String, Long> before = counts();
        List<String> wrong = new ArrayList<>();

        for (Endpoint endpoint : endpoints()) {
            Access access = policy.get(endpoint.rule());
            if (access == null) {
                continue;
            }
            for (Caller caller : Caller.values()) {
                Role role = caller.roleOn(endpoint);
                if (access == Access.OWNERS) {
                    check(endpoint, caller, access.allows(role), ownExperiments.getOrDefault(caller,
                            anothersExperiment), "its own", wrong);
                    check(endpoint, caller, role == Role.ADMIN, anothersExperiment, "another's", wrong);
                } else {
                    check(endpoint, caller, access.allows(role), Map.of(), "", wrong);
                }
            }
        }

        assertThat(wrong).as("answers against the policy").isEmpty();
        assertThat(counts()).as("nothing stored or deleted").isEqualTo(before);
    }

    /** Adds to {@code wrong} what {@code caller} was answered against the policy, which {@code allowed} says. */
    private void check(Endpoint endpoint, Caller caller, boolean allowed, Map<String, String> values, String on,
            List<String> wrong) throws Exception {
        Answer answer = send(endpoint, caller, values, true);
        String refusal = refusal(endpoint, caller);
        boolean right = allowed ? !answer.refused() : refusal.equals(answer.status()
                + (answer.status() == 302 ? " " + answer.location().replaceAll(".*/", "/") : ""));
        if (!right) {
            wrong.add(endpoint + (on.isEmpty() ? "" : " on " + on) + " as " + caller + ": expected "
                    + (allowed ? "allowed" : refusal) + ", got " + answer);
        }
    }

    /**
     * A browser sends its session cookie on its own, to any site's form too: every write that rides on a session (a
     * page's, and the API's when no token or basic credentials sign it in) is refused without the session's CSRF
     * token, sign-in and sign-out included, whoever is signed in.
     */
    @Test
    void everyWriteOnASessionNeedsItsCsrfToken() throws Exception {
        Map<String, Long> before = counts();
        List<String> wrong = new ArrayList<>();

        for (Endpoint endpoint : endpoints()) {
            String method = "*".equals(endpoint.method()) ? "POST" : endpoint.method();
            if (Set.of("GET", "HEAD").contains(method)) {
                continue;
            }
            for (Caller caller : List.of(Caller.VISITOR, Caller.USER_SESSION, Caller.ADMIN_SESSION)) {
                Answer answer = send(endpoint, method, caller, Map.of(), false);
                String said = endpoint.page() ? "This form has expired" : "without a CSRF token";
                if (answer.status() != 403 || !answer.body().contains(said)) {
                    wrong.add(method + " " + endpoint + " as " + caller + " without its CSRF token: " + answer);
                }
            }
        }
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        page(browser, "/login");
        HttpResponse<String> signIn = browser.send(form("/login", "username=admin&password="
                + URLEncoder.encode(adminPassword(), StandardCharsets.UTF_8)), HttpResponse.BodyHandlers.ofString());
        HttpClient admin = sessions.get(Caller.ADMIN_SESSION).client();
        HttpResponse<String> signOut = admin.send(form("/logout", ""), HttpResponse.BodyHandlers.ofString());

        assertThat(wrong).isEmpty();
        assertThat(signIn.statusCode()).isEqualTo(403);
        assertThat(page(browser, "/")).doesNotContain("Signed in as");
        assertThat(signOut.statusCode()).isEqualTo(403);
        assertThat(page(admin, "/")).contains("Signed in as");
        assertThat(counts()).isEqualTo(before);
    }

    /**
     * An {@code Authorization} header that signs nobody in left a session's write on the API without its CSRF token,
     * as a bearer token's is: the session signed it in, unprotected.
     */
    @Test
    void onlyCredentialsOfItsOwnLeaveASessionsWriteWithoutItsCsrfToken() throws Exception {
        HttpClient user = sessions.get(Caller.USER_SESSION).client();
        String cancel = base() + "/api/v1/experiments/" + NO_SUCH_ID + "/cancel";

        HttpResponse<String> other = user.send(HttpRequest.newBuilder(URI.create(cancel))
                .header("Authorization", "Negotiate policy").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> bearer = user.send(HttpRequest.newBuilder(URI.create(cancel))
                .header("Authorization", "Bearer " + sessions.get(Caller.USER_TOKEN).token())
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(other.statusCode()).as(other.body()).isEqualTo(403);
        assertThat(read(other.body()).get("detail").asString()).contains("without a CSRF token");
        assertThat(bearer.statusCode()).as("the token signs it in: no such experiment").isEqualTo(404);
    }

    /**
     * Reading changes nothing: every {@code GET} (a mapping for every method too) of things that exist, an upload,
     * its benchmark, a token and an agent, leaves what is stored as it was. Lists store the digest of results they
     * compute (table results_digest, a cache of what the samples give) and a token's use its time: neither is counted.
     */
    @Test
    void readingChangesNothing() throws Exception {
        String benchmark = "access-policy-reading";
        uploadTwoSamples(benchmark);
        long upload = jdbc.sql("SELECT MAX(id) FROM experiment WHERE benchmark = ?").param(benchmark)
                .query(Long.class).single();
        Map<String, String> experiment = Map.of("id", Long.toString(upload), "experiment", Long.toString(upload),
                "name", benchmark, "path", benchmark);
        Map<String, String> token = Map.of("id", jdbc.sql("SELECT MAX(id) FROM api_token").query(String.class)
                .single());
        Map<String, String> agent = Map.of("id", jdbc.sql("SELECT MIN(id) FROM agent").query(String.class).single());
        Map<String, Long> counts = counts();
        List<String> stored = stored(upload);

        List<String> answers = new ArrayList<>();
        for (Endpoint endpoint : endpoints()) {
            if (endpoint.write()) {
                continue;
            }
            Map<String, String> values = endpoint.pattern().startsWith("/api/v1/tokens") ? token
                    : endpoint.pattern().startsWith("/api/v1/agents") ? agent : experiment;
            // an admin's session reaches every page and API read, and what a page shows only to someone signed in
            Answer answer = send(endpoint, Caller.ADMIN_SESSION, values, false);
            answers.add(endpoint + ": " + answer.status());
        }

        assertThat(answers).hasSizeGreaterThanOrEqualTo(40).contains("GET /experiments/{id}: 200",
                "GET /api/v1/experiments/{id}/report.html: 200", "GET /api/v1/tokens/{id} → application/json: 200",
                "GET /api/v1/agents/{id} → application/json: 200", "GET /benchmarks/{*path}: 200");
        assertThat(counts()).isEqualTo(counts);
        assertThat(stored(upload)).isEqualTo(stored);
    }

    /** What reading could change of an experiment and of the tokens, as text. */
    private List<String> stored(long experiment) {
        List<String> rows = new ArrayList<>(jdbc.sql("SELECT id, status, data_version, finished_at FROM experiment "
                + "WHERE id = ?").param(experiment).query((rs, n) -> rs.getString(1) + " " + rs.getString(2) + " "
                + rs.getString(3) + " " + rs.getString(4)).list());
        rows.addAll(jdbc.sql("SELECT id, name, role, revoked_at FROM api_token ORDER BY id").query((rs, n) ->
                rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getString(4)).list());
        return rows;
    }

    /**
     * How a caller the policy refuses is told: on the API a visitor 401, anyone else 403; on a page a visitor is sent
     * to sign in, a signed-in user 403, and a token caller's write (no session, so no CSRF token) 403.
     */
    private static String refusal(Endpoint endpoint, Caller caller) {
        if (!endpoint.page()) {
            return caller == Caller.VISITOR ? "401" : "403";
        }
        if (caller.roleOn(endpoint) != Role.VISITOR || caller.token && endpoint.write()) {
            return "403";
        }
        return "302 /login";
    }

    private Answer send(Endpoint endpoint, Caller caller, Map<String, String> values, boolean withCsrf)
            throws Exception {
        return send(endpoint, endpoint.sent(), caller, values, withCsrf);
    }

    private Answer send(Endpoint endpoint, String method, Caller caller, Map<String, String> values,
            boolean withCsrf) throws Exception {
        Session session = sessions.get(caller);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + endpoint.path(values)))
                .header("Accept", endpoint.produces() == null ? "*/*" : endpoint.produces().toString());
        if (session.token() != null) {
            request.header("Authorization", "Bearer " + session.token());
        }
        boolean write = !Set.of("GET", "HEAD").contains(method);
        if (write && withCsrf && session.csrf() != null) {
            request.header("X-CSRF-TOKEN", session.csrf());
        }
        if (!write) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else if (endpoint.consumes() != null && endpoint.consumes().isCompatibleWith(MediaType.MULTIPART_FORM_DATA)) {
            request.header("Content-Type", "multipart/form-data; boundary=policy")
                    .method(method, HttpRequest.BodyPublishers.ofString("--policy--\r\n"));
        } else if (endpoint.page()) {
            request.header("Content-Type", "application/x-www-form-urlencoded")
                    .method(method, HttpRequest.BodyPublishers.ofString(""));
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString("{}"));
        }
        HttpResponse<InputStream> response = session.client().send(request.build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = response.body()) {
            // an event stream stays open: its status and headers are the answer
            String type = response.headers().firstValue("Content-Type").orElse("");
            String text = type.startsWith("text/event-stream") ? ""
                    : new String(body.readNBytes(1 << 20), StandardCharsets.UTF_8);
            return new Answer(response.statusCode(), response.headers().firstValue("Location").orElse(""), text);
        }
    }

    /** Rows of what callers can create or delete; a refused or dummy request must move none of them. */
    private Map<String, Long> counts() {
        Map<String, Long> counts = new LinkedHashMap<>(rowCounts());
        for (String table : List.of("api_token", "agent", "app_user")) {
            counts.put(table, jdbc.sql("SELECT COUNT(*) FROM " + table).query(Long.class).single());
        }
        return counts;
    }

    String adminPassword() throws Exception {
        return Files.readString(dataDir.resolve("initial-admin-password")).strip();
    }

    HttpRequest form(String path, String body) {
        return HttpRequest.newBuilder(URI.create(base() + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private Session visitor() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        return new Session(browser, csrf(page(browser, "/login")), null);
    }

    private Session signedIn(String username, String password) throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        HttpResponse<String> signedIn = browser.send(form("/login", "username=" + username + "&password="
                + URLEncoder.encode(password, StandardCharsets.UTF_8) + "&_csrf="
                + URLEncoder.encode(csrf(page(browser, "/login")), StandardCharsets.UTF_8)),
                HttpResponse.BodyHandlers.ofString());
        assertThat(signedIn.statusCode()).as("sign-in of " + username).isEqualTo(302);
        assertThat(signedIn.headers().firstValue("Location").orElseThrow()).doesNotContain("error");
        // signing in replaces the session's CSRF token: the one to send is on a page shown after it
        return new Session(browser, csrf(page(browser, "/")), null);
    }

    String page(HttpClient browser, String path) throws Exception {
        return browser.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "text/html").build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    static String csrf(String html) {
        Matcher token = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(html);
        assertThat(token.find()).as("a form with a CSRF token").isTrue();
        return token.group(1);
    }

    private String newAgentToken(String name) throws Exception {
        jdbc.sql("UPDATE api_token SET revoked_at = CURRENT_TIMESTAMP, revoked_by = 'tests', live_name = NULL "
                + "WHERE name = ? AND revoked_at IS NULL").param(name).update();
        HttpResponse<String> created = post("/api/v1/tokens", ADMIN_TOKEN, "application/json",
                "{\"name\":\"" + name + "\",\"role\":\"agent\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return read(created.body()).get("token").asString();
    }
}
