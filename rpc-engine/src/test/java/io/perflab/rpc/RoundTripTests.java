package io.perflab.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every value of every engine option runs the Add and Echo round trip, sync and async, over loopback TCP. */
class RoundTripTests {

    static Stream<Arguments> everyOptionValue() {
        List<Arguments> cases = new ArrayList<>();
        for (EngineOptions.OptionSpec spec : EngineOptions.optionSpecs()) {
            for (String value : spec.allowedValues()) {
                cases.add(Arguments.of(spec.name(), value));
            }
        }
        cases.add(Arguments.of(EngineOptions.CALL_BUFFER_INITIAL_BYTES, "16"));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("everyOptionValue")
    void addAndEchoRoundTrip(String option, String value) throws Exception {
        EngineOptions options = EngineOptions.defaults().withOption(option, value);
        try (RpcServer server = RpcServer.builder().options(options).config(ServerConfig.defaults())
                .addService(BenchmarkService.definition()).start();
             RpcClient client = RpcClient.create(options)) {
            RpcProxy proxy = client.proxy(server.address());

            assertThat(BenchmarkService.add(proxy, 2, 3, 5000)).isEqualTo(5);
            assertThat(BenchmarkService.add(proxy, Integer.MAX_VALUE, 1, 5000)).isEqualTo(Integer.MIN_VALUE);
            assertThat(BenchmarkService.echo(proxy, 100, 10_000, 5000)).isEqualTo(10_000);
            byte[] payload = new byte[5000];
            for (int i = 0; i < payload.length; i++) {
                payload[i] = (byte) (i * 7);
            }
            assertThat(BenchmarkService.echo(proxy, payload, 5000, 5000)).isEqualTo(payload);

            RpcFuture<Integer> sum = proxy.callFuture(BenchmarkService.ADD, b -> b.writeInt(40).writeInt(2),
                    b -> b.readInt(), 5000);
            assertThat(sum.get(5, TimeUnit.SECONDS)).isEqualTo(42);
            RpcFuture<Integer> echoed = proxy.callFuture(BenchmarkService.ECHO,
                    b -> b.writeInt(300).writeZero(3), ResponseReader.LENGTH, 5000);
            assertThat(echoed.get(5, TimeUnit.SECONDS)).isEqualTo(300);
            assertThat(server.metrics().callsHandled()).isEqualTo(6);
        }
    }
}
