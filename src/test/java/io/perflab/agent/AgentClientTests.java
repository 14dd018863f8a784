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
}
