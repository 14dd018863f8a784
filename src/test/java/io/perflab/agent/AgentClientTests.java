package io.perflab.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AgentClientTests {

    /** The JDK's client throws a refused connection without a message: the agent logged "cannot register …: null". */
    @Test
    void aRefusedConnectionIsSaidInWords() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        AgentClient client = new AgentClient(URI.create("http://localhost:" + port), "plt_x");

        assertThatThrownBy(() -> client.heartbeat(1)).isInstanceOf(IOException.class)
                .hasMessage("the connection was refused (is the service running there?)");
    }

    @Test
    void aServerBehindAPathIsCalledBelowIt() {
        assertThat(new AgentClient(URI.create("https://host.example/perflab"), "t").at("/api/v1/agents"))
                .hasToString("https://host.example/perflab/api/v1/agents");
        assertThat(new AgentClient(URI.create("https://host.example/perflab/"), "t").at("/api/v1/agents"))
                .hasToString("https://host.example/perflab/api/v1/agents");
        assertThat(new AgentClient(URI.create("http://localhost:8080"), "t").at("/api/v1/agents/3/poll"))
                .hasToString("http://localhost:8080/api/v1/agents/3/poll");
    }

    @Test
    void anUnknownHostAndARedirectAreSaidInWords() throws Exception {
        AgentClient unknown = new AgentClient(URI.create("http://no-such-host.invalid:8080"), "plt_x");
        assertThatThrownBy(() -> unknown.heartbeat(1)).isInstanceOf(IOException.class)
                .hasMessage("the host name is not known (is --server spelled right?)");

        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("localhost", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getResponseHeaders().add("Location", "https://perflab.example/api/v1/agents/1/heartbeat");
            exchange.sendResponseHeaders(301, -1);
            exchange.close();
        });
        server.start();
        try {
            AgentClient redirected = new AgentClient(URI.create("http://localhost:" + server.getAddress().getPort()),
                    "plt_x");
            assertThatThrownBy(() -> redirected.heartbeat(1)).isInstanceOf(AgentClient.Refused.class)
                    .hasMessageContaining("redirected /api/v1/agents/1/heartbeat to "
                            + "https://perflab.example/api/v1/agents/1/heartbeat");
        } finally {
            server.stop(0);
        }
    }

    /**
     * An answer of the wrong shape (a 200 from a proxy, a service of another version) threw Jackson's unchecked
     * exception, or gave null: the agent's heartbeat thread died of it and the agent itself stopped with a stack
     * trace. It is an IOException naming the field, as an answer that is not JSON is.
     */
    @Test
    void anAnswerOfTheWrongShapeIsAnIOExceptionNamingTheField() throws Exception {
        for (String[] answer : new String[][] {
                {"/heartbeat", "{\"cancel\": \"yes\"}", "answer to /api/v1/agents/1/heartbeat is not what an agent "
                        + "expects: cancel: must be true or false"},
                {"/heartbeat", "", "answer to /api/v1/agents/1/heartbeat is empty"},
                {"/heartbeat", "null", "answer to /api/v1/agents/1/heartbeat is empty"},
                {"/poll", "[1, 2]", "answer to /api/v1/agents/1/poll?waitSeconds=1 is not what an agent expects"},
                {"/trials", "{\"stored\": {}}", "stored: must be true or false"},
                {"/agents", "{\"agentId\": \"seven\"}", "agentId: must be a whole number"},
                {"/agents", "{\"heartbeatTimeoutSeconds\": 30}", "agentId: is missing or null"},
                {"/agents", "{\"agentId\": 3, \"heartbeatSeconds\": -1, \"heartbeatTimeoutSeconds\": 30}",
                        "heartbeatSeconds (positive numbers): 3 and -1.0"}}) {
            HttpServer server = serving(exchange -> send(exchange, 200, answer[1].getBytes(StandardCharsets.UTF_8)));
            try {
                AgentClient client = client(server, Duration.ofSeconds(30));
                Callable<Object> call = switch (answer[0]) {
                    case "/heartbeat" -> () -> client.heartbeat(1);
                    case "/poll" -> () -> client.poll(1, 1);
                    case "/trials" -> () -> client.postTrial(1, 2, null);
                    default -> () -> client.register(null);
                };
                assertThatThrownBy(call::call).as(answer[1]).isInstanceOf(IOException.class)
                        .hasMessageContaining(answer[2]).hasMessageNotContaining("java").hasMessageNotContaining("`");
            } finally {
                server.stop(0);
            }
        }
    }

    /** An answer was read whole, however large: a service or proxy that sent without end filled the agent's heap. */
    @Test
    void anAnswerLargerThanAnyOfTheServicesIsCutOff() throws Exception {
        byte[] megabyte = " ".repeat(1 << 20).getBytes(StandardCharsets.UTF_8);
        HttpServer server = serving(exchange -> {
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream body = exchange.getResponseBody()) {
                body.write("{\"cancel\": true}".getBytes(StandardCharsets.UTF_8));
                for (int i = 0; i < 40; i++) {
                    body.write(megabyte);
                }
            } catch (IOException closedByTheAgent) {
                // the agent stopped reading
            }
        });
        try {
            assertThatThrownBy(() -> client(server, Duration.ofSeconds(30)).heartbeat(1))
                    .isInstanceOf(IOException.class)
                    .hasMessage("the service's answer is larger than 16 MiB; no answer of PerfLab's is");
        } finally {
            server.stop(0);
        }
    }

    /**
     * The JDK's client bounds the wait for an answer's headers only: a service that sent its headers and then fell
     * silent (a network cut mid-answer) held the call for good, the heartbeat thread with it.
     */
    @Test
    void anAnswerThatStopsMidwayTimesOut() throws Exception {
        CountDownLatch released = new CountDownLatch(1);
        HttpServer server = serving(exchange -> {
            exchange.sendResponseHeaders(200, 0);
            exchange.getResponseBody().write('{');
            exchange.getResponseBody().flush();
            hold(released);
            exchange.close();
        });
        try {
            long start = System.nanoTime();
            assertThatThrownBy(() -> client(server, Duration.ofSeconds(1)).heartbeat(1))
                    .isInstanceOf(IOException.class)
                    .hasMessage("no whole answer to /api/v1/agents/1/heartbeat within 1 s");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        } finally {
            released.countDown();
            server.stop(0);
        }
    }

    /**
     * A proxy's 429 (rate limit) or 408 (request timeout) passes as a server error does, to be tried again: it was a
     * refusal, which ends the agent when it answers a poll; a 403 still is.
     */
    @Test
    void aRateLimitOrARequestTimeoutIsTriedAgainNotARefusal() throws Exception {
        for (int status : new int[] {429, 408, 503}) {
            HttpServer server = serving(exchange -> {
                byte[] body = "{\"detail\": \"slow down\"}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            try {
                assertThatThrownBy(() -> client(server, Duration.ofSeconds(5)).poll(1, 0))
                        .isExactlyInstanceOf(IOException.class)
                        .hasMessage("the service answered " + status + " to /api/v1/agents/1/poll?waitSeconds=0: "
                                + "slow down");
            } finally {
                server.stop(0);
            }
        }
        HttpServer forbidden = serving(exchange -> {
            exchange.sendResponseHeaders(403, -1);
            exchange.close();
        });
        try {
            assertThatThrownBy(() -> client(forbidden, Duration.ofSeconds(5)).poll(1, 0))
                    .isInstanceOf(AgentClient.Refused.class);
        } finally {
            forbidden.stop(0);
        }
    }

    @Test
    void aLeaveIsPostedToTheAgentsLeaveBelowTheServersPathAndAnErrorIsThrown() throws Exception {
        java.util.List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpServer server = serving(exchange -> {
            asked.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                    + exchange.getRequestHeaders().getFirst("Authorization"));
            if (exchange.getRequestURI().getPath().contains("/9/")) {
                send(exchange, 409, "{\"detail\": \"agent 9 was declared lost\"}".getBytes(StandardCharsets.UTF_8));
            } else {
                send(exchange, 200, "{\"id\": 3, \"status\": \"LEFT\"}".getBytes(StandardCharsets.UTF_8));
            }
        });
        try {
            AgentClient client = new AgentClient(URI.create("http://localhost:" + server.getAddress().getPort()
                    + "/perflab"), "plt_x", Duration.ofSeconds(30));

            client.leave(3);

            assertThat(asked).containsExactly("POST /perflab/api/v1/agents/3/leave Bearer plt_x");
            assertThatThrownBy(() -> client.leave(9)).isInstanceOf(AgentClient.Refused.class)
                    .hasMessage("the service answered 409: agent 9 was declared lost");
        } finally {
            server.stop(0);
        }
    }

    /** A leave is sent as the agent exits: a service that does not answer holds it a few seconds at most. */
    @Test
    void aLeaveWaitsAFewSecondsAtMost() throws Exception {
        CountDownLatch released = new CountDownLatch(1);
        HttpServer server = serving(exchange -> {
            hold(released);
            exchange.close();
        });
        try {
            long start = System.nanoTime();
            assertThatThrownBy(() -> client(server, Duration.ofSeconds(30)).leave(1))
                    .isInstanceOf(java.net.http.HttpTimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(AgentClient.LEAVE_SECONDS).minusMillis(100))
                    .isLessThan(Duration.ofSeconds(15));
        } finally {
            released.countDown();
            server.stop(0);
        }
    }

    private static HttpServer serving(HttpHandler handler) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "fake service");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            handler.handle(exchange);
        });
        server.start();
        return server;
    }

    private static AgentClient client(HttpServer server, Duration answerTime) {
        return new AgentClient(URI.create("http://localhost:" + server.getAddress().getPort()), "plt_x", answerTime);
    }

    private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
        exchange.close();
    }

    /** Holds a handler until the test releases it, or 30 s. */
    private static void hold(CountDownLatch released) {
        try {
            released.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
