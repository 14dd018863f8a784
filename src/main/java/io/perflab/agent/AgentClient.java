package io.perflab.agent;

import io.perflab.agent.AgentProtocol.Assignment;
import io.perflab.agent.AgentProtocol.Finish;
import io.perflab.agent.AgentProtocol.HeartbeatAnswer;
import io.perflab.agent.AgentProtocol.PairAnswer;
import io.perflab.agent.AgentProtocol.PostedTrial;
import io.perflab.agent.AgentProtocol.Registered;
import io.perflab.agent.AgentProtocol.Registration;
import io.perflab.agent.AgentProtocol.TrialAnswer;
import io.perflab.system.Texts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
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

    private final URI server;
    private final String token;
    private final HttpClient http;

    /**
     * @param server the service's base URL, e.g. {@code http://perflab:8080}
     * @param token an API token of role AGENT (or an admin's)
     */
    public AgentClient(URI server, String token) {
        this.server = server;
        this.token = token;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    public URI server() {
        return server;
    }

    public Registered register(Registration registration) throws IOException {
        return JSON.treeToValue(send("/api/v1/agents", registration, Duration.ofSeconds(30)), Registered.class);
    }

    /** Claims an experiment, waiting up to {@code waitSeconds} for one; empty when none came. */
    public Optional<Assignment> poll(long agentId, int waitSeconds) throws IOException {
        JsonNode answer = send("/api/v1/agents/" + agentId + "/poll?waitSeconds=" + waitSeconds, null,
                Duration.ofSeconds(waitSeconds + 30L));
        return answer == null ? Optional.empty() : Optional.of(JSON.treeToValue(answer, Assignment.class));
    }

    public HeartbeatAnswer heartbeat(long agentId) throws IOException {
        return JSON.treeToValue(send("/api/v1/agents/" + agentId + "/heartbeat", null, Duration.ofSeconds(30)),
                HeartbeatAnswer.class);
    }

    /** Posts a finished trial; posting it again (a retry) stores nothing more. */
    public TrialAnswer postTrial(long agentId, long experimentId, PostedTrial trial) throws IOException {
        return JSON.treeToValue(send("/api/v1/agents/" + agentId + "/experiments/" + experimentId + "/trials", trial,
                Duration.ofSeconds(60)), TrialAnswer.class);
    }

    /**
     * Posts a finished pair of a paired design, whole; posting it again stores nothing more. The answer says whether
     * the experiment's stopping rule stops it after this pair.
     */
    public PairAnswer postPair(long agentId, long experimentId, AgentProtocol.PostedPair pair) throws IOException {
        return JSON.treeToValue(send("/api/v1/agents/" + agentId + "/experiments/" + experimentId + "/pairs", pair,
                Duration.ofSeconds(60)), PairAnswer.class);
    }

    public void finish(long agentId, long experimentId, Finish finish) throws IOException {
        send("/api/v1/agents/" + agentId + "/experiments/" + experimentId + "/finish", finish,
                Duration.ofSeconds(60));
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

    /** POSTs {@code body} (none when null) as JSON; the answer's JSON, or null for 204. */
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
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + path, e);
        } catch (IOException e) {
            throw e.getMessage() == null ? new IOException(describe(e), e) : e;
        }
        int status = response.statusCode();
        if (status == 204) {
            return null;
        }
        if (status >= 500) {
            throw new IOException("the service answered " + status + " to " + path + ": " + detail(response.body()));
        }
        if (status >= 400) {
            throw new Refused(status, detail(response.body()));
        }
        if (status >= 300) {
            // an http:// URL behind a redirect to https://, typically: say where to, rather than "not JSON"
            throw new Refused(status, "the service redirected " + path + " to "
                    + response.headers().firstValue("Location").orElse("another URL")
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

    private static String detail(String body) {
        try {
            JsonNode problem = JSON.readTree(body);
            if (problem != null && problem.has("detail")) {
                return problem.get("detail").asString();
            }
        } catch (JacksonException notJson) {
            // show the body as it is
        }
        return Texts.cut(body, 301);
    }
}
