package io.perflab.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed input from a raw socket closes that connection only; a real client on another
 * connection keeps being served.
 */
class ProtocolFailureTests {

    private RpcServer server;
    private RpcClient client;
    private RpcProxy proxy;

    @BeforeEach
    void setUp() {
        server = RpcServer.builder().config(ServerConfig.defaults().withMaxFrameBytes(1 << 20))
                .addService(BenchmarkService.definition()).start();
        client = RpcClient.create(EngineOptions.defaults());
        proxy = client.proxy(server.address());
    }

    @AfterEach
    void tearDown() {
        client.close();
        server.close();
    }

    static Stream<Arguments> badStreams() {
        byte[] truncatedHeader = java.nio.ByteBuffer.allocate(17).putInt(13).putInt(1).putInt(0).put((byte) 0)
                .put((byte) 200).put(new byte[3]).array();
        return Stream.of(
                Arguments.of("oversized frame", TestFrames.concat(TestFrames.preamble(),
                        TestFrames.lengthOnly(Integer.MAX_VALUE))),
                Arguments.of("length just over the limit", TestFrames.concat(TestFrames.preamble(),
                        TestFrames.lengthOnly((1 << 20) + 1))),
                Arguments.of("negative length", TestFrames.concat(TestFrames.preamble(), TestFrames.lengthOnly(-1))),
                Arguments.of("length below header size", TestFrames.concat(TestFrames.preamble(),
                        TestFrames.lengthOnly(3), new byte[3])),
                Arguments.of("truncated header", TestFrames.concat(TestFrames.preamble(), truncatedHeader)),
                Arguments.of("garbage", new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef, 1, 2, 3}),
                Arguments.of("HTTP request", "GET /api/v1/experiments HTTP/1.1\r\nHost: x\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badStreams")
    void badInputClosesThatConnectionAndServerKeepsServing(String name, byte[] bytes) throws IOException {
        assertThat(BenchmarkService.add(proxy, 1, 2, 5000)).isEqualTo(3);
        try (Socket raw = new Socket(server.address().getAddress(), server.port())) {
            raw.setSoTimeout(10_000); // guard only: the server closes at once
            raw.getOutputStream().write(bytes);
            raw.getOutputStream().flush();
            assertThat(readUntilClosed(raw.getInputStream())).isZero();
        }
        assertThat(server.metrics().protocolErrors()).isEqualTo(1);
        assertThat(BenchmarkService.add(proxy, 3, 4, 5000)).isEqualTo(7);
        assertThat(BenchmarkService.echo(proxy, 10, 100_000, 5000)).isEqualTo(100_000);
    }

    private static int readUntilClosed(InputStream in) throws IOException {
        int received = 0;
        try {
            while (in.read() >= 0) {
                received++;
            }
        } catch (SocketException reset) {
            // closed with a reset: also closed
        }
        return received;
    }
}
