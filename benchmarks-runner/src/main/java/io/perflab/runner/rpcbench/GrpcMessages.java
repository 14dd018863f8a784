package io.perflab.runner.rpcbench;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * The benchmark service's methods for gRPC, with the engine's message layout so that each call does the same
 * work on every stack: {@code Calculator/Add} takes {@code int32 x, int32 y} (8 bytes, big-endian) and answers
 * {@code int32 x + y}; {@code Calculator/Echo} takes {@code int32 responseBytes} then any payload and answers
 * {@code responseBytes} bytes, the payload's first bytes padded with zeros.
 *
 * <p>Messages are plain byte arrays: no protobuf, no code generation. The marshaller's stream is
 * {@link KnownLength} and {@link Drainable}, as gRPC's own protobuf marshaller is, so gRPC sizes the message
 * without reading it and copies the array once into its frame.
 */
final class GrpcMessages {

    static final String SERVICE = "Calculator";
    static final MethodDescriptor.Marshaller<byte[]> BYTES = new ByteArrayMarshaller();
    static final MethodDescriptor<byte[], byte[]> ADD = unary("Add");
    static final MethodDescriptor<byte[], byte[]> ECHO = unary("Echo");

    private GrpcMessages() {
    }

    private static MethodDescriptor<byte[], byte[]> unary(String method) {
        return MethodDescriptor.<byte[], byte[]>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, method))
                .setRequestMarshaller(BYTES)
                .setResponseMarshaller(BYTES)
                .build();
    }

    /** The method a workload calls. */
    static MethodDescriptor<byte[], byte[]> method(Workload workload) {
        return workload.echo() ? ECHO : ADD;
    }

    /** The request of one call: {@code x, 1} for Add, {@code responseBytes} and a zero payload for Echo. */
    static byte[] request(Workload workload, int x) {
        if (workload.echo()) {
            byte[] request = new byte[4 + workload.requestBytes()];
            ByteBuffer.wrap(request).putInt(workload.responseBytes());
            return request;
        }
        return ByteBuffer.allocate(8).putInt(x).putInt(1).array();
    }

    /** The server's answer to {@code Calculator/Add}. */
    static byte[] add(byte[] request) {
        if (request.length != 8) {
            throw new IllegalArgumentException("Calculator.Add expects 8 bytes (int32 x, int32 y), got "
                    + request.length);
        }
        ByteBuffer in = ByteBuffer.wrap(request);
        return ByteBuffer.allocate(4).putInt(in.getInt() + in.getInt()).array();
    }

    /** The server's answer to {@code Calculator/Echo}. */
    static byte[] echo(byte[] request) {
        if (request.length < 4) {
            throw new IllegalArgumentException("Calculator.Echo expects int32 responseBytes, got " + request.length
                    + " bytes");
        }
        int responseBytes = ByteBuffer.wrap(request).getInt();
        if (responseBytes < 0) {
            throw new IllegalArgumentException("Calculator.Echo responseBytes is negative: " + responseBytes);
        }
        byte[] response = new byte[responseBytes];
        System.arraycopy(request, 4, response, 0, Math.min(responseBytes, request.length - 4));
        return response;
    }

    /** Checks a response as the engine's client does: the sum for Add, the length for Echo. */
    static int check(Workload workload, byte[] response) {
        if (workload.echo()) {
            if (response.length != workload.responseBytes()) {
                throw new IllegalStateException("Echo answered " + response.length + " bytes, expected "
                        + workload.responseBytes());
            }
            return response.length;
        }
        if (response.length != 4) {
            throw new IllegalStateException("Add answered " + response.length + " bytes, expected 4");
        }
        return ByteBuffer.wrap(response).getInt();
    }

    /** byte[] ↔ message bytes, with a stream gRPC can size and drain without copying through a buffer. */
    static final class ByteArrayMarshaller implements MethodDescriptor.Marshaller<byte[]> {

        @Override
        public InputStream stream(byte[] value) {
            return new ArrayStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                if (stream instanceof KnownLength) {
                    int length = stream.available();
                    byte[] value = stream.readNBytes(length);
                    if (value.length != length) {
                        throw new IllegalStateException("message ended after " + value.length + " of " + length
                                + " bytes");
                    }
                    return value;
                }
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static final class ArrayStream extends ByteArrayInputStream implements KnownLength, Drainable {

        ArrayStream(byte[] value) {
            super(value);
        }

        @Override
        public int drainTo(OutputStream target) throws IOException {
            int drained = count - pos;
            target.write(buf, pos, drained);
            pos = count;
            return drained;
        }
    }
}
