package io.perflab.runner.rpcbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The gRPC stack's messages: the marshaller's stream and the engine's payload semantics. */
class GrpcMessagesTests {

    @Test
    void marshallerStreamIsSizedAndDrainedWithoutReading() throws IOException {
        byte[] value = {1, 2, 3, 4, 5};
        InputStream stream = GrpcMessages.BYTES.stream(value);

        assertThat(stream).isInstanceOf(KnownLength.class).isInstanceOf(Drainable.class);
        assertThat(stream.available()).isEqualTo(5);
        ByteArrayOutputStream target = new ByteArrayOutputStream();
        assertThat(((Drainable) stream).drainTo(target)).isEqualTo(5);
        assertThat(target.toByteArray()).containsExactly(value);
        assertThat(stream.available()).isZero();
    }

    @Test
    void marshallerRoundTripsKnownLengthAndPlainStreams() {
        byte[] value = new byte[3000];
        value[0] = 7;
        value[2999] = 9;

        assertThat(GrpcMessages.BYTES.parse(GrpcMessages.BYTES.stream(value))).containsExactly(value);
        assertThat(GrpcMessages.BYTES.parse(new ByteArrayInputStream(value))).containsExactly(value);
        assertThat(GrpcMessages.BYTES.parse(GrpcMessages.BYTES.stream(new byte[0]))).isEmpty();
    }

    @Test
    void addAnswersTheSumAsTheEngineDoes() {
        Workload add = Workload.DEFAULTS.withStack(Stack.GRPC);
        byte[] request = GrpcMessages.request(add, 41);

        assertThat(request).hasSize(8);
        assertThat(GrpcMessages.method(add)).isSameAs(GrpcMessages.ADD);
        assertThat(GrpcMessages.ADD.getFullMethodName()).isEqualTo("Calculator/Add");
        assertThat(GrpcMessages.check(add, GrpcMessages.add(request))).isEqualTo(42);
        assertThatThrownBy(() -> GrpcMessages.add(new byte[4]))
                .hasMessage("Calculator.Add expects 8 bytes (int32 x, int32 y), got 4");
    }

    @Test
    void echoAnswersResponseBytesOfThePayloadPaddedWithZeros() {
        Workload echo = Workload.DEFAULTS.withStack(Stack.GRPC).withPayload(2048, 2048);
        byte[] request = GrpcMessages.request(echo, 0);

        assertThat(request).hasSize(4 + 2048);
        assertThat(ByteBuffer.wrap(request).getInt()).isEqualTo(2048);
        assertThat(GrpcMessages.method(echo)).isSameAs(GrpcMessages.ECHO);
        assertThat(GrpcMessages.check(echo, GrpcMessages.echo(request))).isEqualTo(2048);

        byte[] shortPayload = ByteBuffer.allocate(4 + 2).putInt(5).put((byte) 8).put((byte) 9).array();
        assertThat(GrpcMessages.echo(shortPayload)).containsExactly(8, 9, 0, 0, 0);
        assertThatThrownBy(() -> GrpcMessages.check(echo, new byte[10]))
                .hasMessage("Echo answered 10 bytes, expected 2048");
    }

    @Test
    void echoRefusesNegativeOrHugeResponseSizesInsteadOfAllocatingThem() {
        byte[] huge = ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array();
        byte[] negative = ByteBuffer.allocate(4).putInt(-1).array();

        assertThatThrownBy(() -> GrpcMessages.echo(huge))
                .hasMessage("Calculator.Echo responseBytes 2147483647 exceeds 67108864");
        assertThatThrownBy(() -> GrpcMessages.echo(negative))
                .hasMessage("Calculator.Echo responseBytes is negative: -1");
        assertThatThrownBy(() -> GrpcMessages.echo(new byte[3]))
                .hasMessage("Calculator.Echo expects int32 responseBytes, got 3 bytes");
    }
}
