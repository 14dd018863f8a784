package io.perflab.rpc;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Immutable open-addressing table from encoded {@code Service.Method} names to handlers, looked up
 * straight from the request frame so that dispatch allocates nothing.
 */
final class MethodTable {

    private final byte[][] names;
    private final MethodHandler[] handlers;
    private final int mask;
    private final List<String> fullNames = new ArrayList<>();

    MethodTable(List<ServiceDefinition> services) {
        int count = services.stream().mapToInt(s -> s.methods().size()).sum();
        int size = Integer.highestOneBit(Math.max(4, count * 4) - 1) << 1;
        names = new byte[size][];
        handlers = new MethodHandler[size];
        mask = size - 1;
        for (ServiceDefinition service : services) {
            service.methods().forEach((method, handler) -> {
                String fullName = service.name() + "." + method;
                byte[] encoded = fullName.getBytes(StandardCharsets.US_ASCII);
                int slot = hash(encoded, 0, encoded.length) & mask;
                while (names[slot] != null) {
                    if (java.util.Arrays.equals(names[slot], encoded)) {
                        throw new IllegalArgumentException("method '" + fullName + "' registered twice");
                    }
                    slot = (slot + 1) & mask;
                }
                names[slot] = encoded;
                handlers[slot] = handler;
                fullNames.add(fullName);
            });
        }
    }

    /** Handler for the {@code length} name bytes at {@code index} of {@code buf}, or {@code null}. */
    MethodHandler lookup(ByteBuf buf, int index, int length) {
        int h = 0;
        for (int i = 0; i < length; i++) {
            h = 31 * h + buf.getByte(index + i);
        }
        for (int slot = h & mask; ; slot = (slot + 1) & mask) {
            byte[] name = names[slot];
            if (name == null) {
                return null;
            }
            if (name.length == length && matches(name, buf, index)) {
                return handlers[slot];
            }
        }
    }

    List<String> fullNames() {
        return fullNames;
    }

    private static boolean matches(byte[] name, ByteBuf buf, int index) {
        for (int i = 0; i < name.length; i++) {
            if (name[i] != buf.getByte(index + i)) {
                return false;
            }
        }
        return true;
    }

    private static int hash(byte[] bytes, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + bytes[i];
        }
        return h;
    }
}
