package io.perflab.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
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
}
