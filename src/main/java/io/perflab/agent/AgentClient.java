package io.perflab.agent;

import io.perflab.agent.AgentProtocol.Assignment;
import io.perflab.agent.AgentProtocol.Finish;
import io.perflab.agent.AgentProtocol.HeartbeatAnswer;
import io.perflab.agent.AgentProtocol.PairAnswer;
import io.perflab.agent.AgentProtocol.PostedTrial;
import io.perflab.agent.AgentProtocol.Registered;
import io.perflab.agent.AgentProtocol.Registration;
import io.perflab.agent.AgentProtocol.TrialAnswer;
import io.perflab.system.JsonErrors;
import io.perflab.system.PrintableText;
import io.perflab.system.Texts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An agent's HTTP client of the service ({@code /api/v1/agents}) with its bearer token. Each call either answers,
 * throws {@link IOException} when the service cannot be reached (worth a retry), or throws {@link Refused} with the
 * service's status and problem detail (not worth one).
 */
public final class AgentClient {

    /** The service answered with an error: its status and what its problem detail says. */
    public static final class Refused extends RuntimeException {

        private final int status;

        Refused(int status, String detail) {
            super("the service answered " + status + ": " + detail);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The most a leave waits for its answer: it is sent as the agent exits, and the service does without it. */
    static final int LEAVE_SECONDS = 5;

    /**
     * The largest answer read: far more than the largest assignment (two commands and their environments), so that
     * a service or proxy that sends without end costs the agent no more memory than this.
     */
    static final int MAX_ANSWER_BYTES = 16 << 20;

    private final URI server;
    private final String token;
    private final HttpClient http;
    /** The most a call waits for its whole answer, beyond a poll's own wait (twice as long for a post). */
    private final Duration answerTime;

    /**
     * @param server the service's base URL, e.g. {@code http://perflab:8080}
     * @param token an API token of role AGENT (or an admin's)
     */
    public AgentClient(URI server, String token) {
        this(server, token, Duration.ofSeconds(30));
    }

    AgentClient(URI server, String token, Duration answerTime) {
        this.server = server;
        this.token = token;
        this.answerTime = answerTime;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    public URI server() {
        return server;
    }

    public Registered register(Registration registration) throws IOException {
        String path = "/api/v1/agents";
        Registered registered = answer(send(path, registration, answerTime), Registered.class, path);
        if (registered.agentId() <= 0 || !(registered.heartbeatSeconds() > 0)
                || !Double.isFinite(registered.heartbeatSeconds())) {
            throw new IOException("the service's answer to " + path + " holds no usable agentId and "
                    + "heartbeatSeconds (positive numbers): " + registered.agentId() + " and "
                    + registered.heartbeatSeconds());
        }
        return registered;
    }

    /** Claims an experiment, waiting up to {@code waitSeconds} for one; empty when none came. */
    public Optional<Assignment> poll(long agentId, int waitSeconds) throws IOException {
        String path = "/api/v1/agents/" + agentId + "/poll?waitSeconds=" + waitSeconds;
        JsonNode answer = send(path, null, answerTime.plusSeconds(waitSeconds));
        if (answer == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(answer(answer, Assignment.class, path));
        } catch (IOException unreadable) {
            JsonNode id = answer.path("experimentId");
            if (id.isIntegralNumber() && id.canConvertToLong() && id.asLong() > 0) {
                throw new UnreadableAssignment(id.asLong(), unreadable.getMessage());
            }
            throw unreadable;
        }
    }

    /**
     * An assignment whose experiment is named but whose other fields an agent cannot read (a service of another
     * version): the service now holds that experiment for this agent, which must end it, or it waits for it forever.
     */
    public static final class UnreadableAssignment extends IOException {

        private final long experimentId;

        UnreadableAssignment(long experimentId, String message) {
            super(message);
            this.experimentId = experimentId;
        }

        public long experimentId() {
            return experimentId;
        }
    }

    public HeartbeatAnswer heartbeat(long agentId) throws IOException {
        String path = "/api/v1/agents/" + agentId + "/heartbeat";
        return answer(send(path, null, answerTime), HeartbeatAnswer.class, path);
    }

    /** Posts a finished trial; posting it again (a retry) stores nothing more. */
    public TrialAnswer postTrial(long agentId, long experimentId, PostedTrial trial) throws IOException {
        String path = "/api/v1/agents/" + agentId + "/experiments/" + experimentId + "/trials";
        return answer(send(path, trial, answerTime.multipliedBy(2)), TrialAnswer.class, path);
    }

    /**
     * Posts a finished pair of a paired design, whole; posting it again stores nothing more. The answer says whether
     * the experiment's stopping rule stops it after this pair.
     */
    public PairAnswer postPair(long agentId, long experimentId, AgentProtocol.PostedPair pair) throws IOException {
        String path = "/api/v1/agents/" + agentId + "/experiments/" + experimentId + "/pairs";
        return answer(send(path, pair, answerTime.multipliedBy(2)), PairAnswer.class, path);
    }

    public void finish(long agentId, long experimentId, Finish finish) throws IOException {
        send("/api/v1/agents/" + agentId + "/experiments/" + experimentId + "/finish", finish,
                answerTime.multipliedBy(2));
    }

    /**
     * Tells the service that this agent leaves (it was stopped): the service ends any experiment it still holds at
     * once, rather than when its heartbeat times out, and takes no further message of {@code agentId}. Waits at most
     * {@value #LEAVE_SECONDS} s.
     */
    public void leave(long agentId) throws IOException {
        Duration leaveTime = Duration.ofSeconds(LEAVE_SECONDS);
        send("/api/v1/agents/" + agentId + "/leave", null, answerTime.compareTo(leaveTime) < 0 ? answerTime
                : leaveTime);
    }

    /**
     * The service's answer to {@code path} as a {@code type}; an answer that is none (empty, {@code null}, a field
     * of the wrong type) is an {@link IOException} naming what does not fit, as an answer that is not JSON is: a
     * service mid-upgrade or a proxy's page, worth a retry.
     */
    private static <T> T answer(JsonNode answer, Class<T> type, String path) throws IOException {
        T value;
        try {
            value = answer == null || answer.isMissingNode() || answer.isNull() ? null
                    : JSON.treeToValue(answer, type);
        } catch (JacksonException e) {
            throw new IOException("the service's answer to " + path + " is not what an agent expects: "
                    + JsonErrors.describe(e));
        }
        if (value == null) {
            throw new IOException("the service's answer to " + path + " is empty");
        }
        return value;
    }

    /**
     * {@code path} below the server's URL, its own path kept: a PerfLab behind a proxy at
     * {@code https://host/perflab} answers at {@code https://host/perflab/api/v1/…}, as uploads and tokens call it
     * (resolving an absolute path would drop {@code /perflab}).
     */
    URI at(String path) {
        String base = server.toString();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path);
    }

    /**
     * POSTs {@code body} (none when null) as JSON; the answer's JSON, or null for 204. The whole answer must come
     * within {@code timeout} (the JDK's client bounds only the wait for its headers, so a service that stalled
     * mid-answer held the call for good) and within {@value #MAX_ANSWER_BYTES} bytes.
     */
    private JsonNode send(String path, Object body, Duration timeout) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(at(path))
                .timeout(timeout)
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json")
                .header("Content-Type", "application/json")
                .POST(body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body), StandardCharsets.UTF_8))
                .build();
        HttpResponse<String> response;
        CompletableFuture<HttpResponse<String>> answered = http.sendAsync(request,
                info -> new BoundedAnswer(MAX_ANSWER_BYTES));
        try {
            response = answered.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            answered.cancel(true);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + path, e);
        } catch (TimeoutException e) {
            answered.cancel(true);
            throw new HttpTimeoutException("no whole answer to " + path + " within " + timeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException failed) {
                throw failed.getMessage() == null ? new IOException(describe(failed), failed) : failed;
            }
            throw new IOException("the call to " + path + " failed", e.getCause());
        }
        int status = response.statusCode();
        if (status == 204) {
            return null;
        }
        // a server error, or a proxy that timed the request out or limits its rate: worth another try later
        if (status >= 500 || status == 408 || status == 429) {
            throw new IOException("the service answered " + status + " to " + path + ": " + detail(response.body()));
        }
        if (status >= 400) {
            throw new Refused(status, detail(response.body()));
        }
        if (status >= 300) {
            // an http:// URL behind a redirect to https://, typically: say where to, rather than "not JSON"
            throw new Refused(status, "the service redirected " + path + " to "
                    + PrintableText.Validator.shown(response.headers().firstValue("Location").orElse("another URL"))
                    + "; give that URL's server as --server");
        }
        try {
            return JSON.readTree(response.body());
        } catch (JacksonException e) {
            throw new IOException("the service's answer to " + path + " is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * What went wrong with a connection, in words: the JDK's client throws a refused or reset connection without a
     * message, which was shown as "null".
     */
    public static String describe(IOException e) {
        if (e.getMessage() != null) {
            return e.getMessage();
        }
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof java.nio.channels.UnresolvedAddressException) {
                return "the host name is not known (is --server spelled right?)";
            }
        }
        return e instanceof java.net.ConnectException ? "the connection was refused (is the service running there?)"
                : e instanceof java.net.http.HttpTimeoutException ? "no answer in time"
                : "the connection failed" + (e.getCause() instanceof IOException cause && cause.getMessage() != null
                        ? ": " + cause.getMessage() : "");
    }

    /**
     * What an error answer says, as a terminal may show it: its problem's {@code detail} on one line, else its body
     * (a proxy's page) with its lines, cut after 300 characters saying how many more it has; each
     * control character or one that hides, reorders or breaks text written as its escape ({@code \u001B},
     * {@code \u202E}), so that a proxy or a service that is not PerfLab cannot drive the terminal.
     */
    public static String detail(String body) {
        try {
            JsonNode problem = JSON.readTree(body);
            if (problem != null && problem.has("detail")) {
                return PrintableText.Validator.shown(problem.get("detail").asString());
            }
        } catch (JacksonException notJson) {
            // show the body
        }
        String text = body.strip();
        String cut = Texts.cut(text, 301);
        return PrintableText.Validator.shownLines(cut) + (cut.equals(text) ? ""
                : " (" + (text.length() - cut.length() + 1) + " more characters not shown)");
    }
}
