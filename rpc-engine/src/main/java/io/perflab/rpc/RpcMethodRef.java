package io.perflab.rpc;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A method as a client names it: {@code Service.Method}, encoded once so that calls only copy bytes.
 */
public final class RpcMethodRef {

    private final String fullName;
    private final byte[] encoded;

    private RpcMethodRef(String fullName) {
        this.fullName = fullName;
        this.encoded = fullName.getBytes(StandardCharsets.US_ASCII);
    }

    public static RpcMethodRef of(String service, String method) {
        return of(service + "." + method);
    }

    /** @param fullName {@code Service.Method}, printable ASCII, at most 255 bytes */
    public static RpcMethodRef of(String fullName) {
        Objects.requireNonNull(fullName, "fullName");
        checkName(fullName);
        return new RpcMethodRef(fullName);
    }

    static void checkName(String fullName) {
        if (fullName.isEmpty() || fullName.length() > WireFormat.MAX_METHOD_NAME_BYTES
                || !fullName.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException("method name must be 1.." + WireFormat.MAX_METHOD_NAME_BYTES
                    + " printable ASCII characters without spaces: '" + fullName + "'");
        }
    }

    public String fullName() {
        return fullName;
    }

    byte[] encoded() {
        return encoded;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RpcMethodRef other && fullName.equals(other.fullName);
    }

    @Override
    public int hashCode() {
        return fullName.hashCode();
    }

    @Override
    public String toString() {
        return fullName;
    }
}
