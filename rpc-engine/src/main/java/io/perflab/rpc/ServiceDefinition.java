package io.perflab.rpc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** A named service and its methods, registered with {@link RpcServer.Builder#addService}. */
public final class ServiceDefinition {

    private final String name;
    private final Map<String, MethodHandler> methods;

    private ServiceDefinition(String name, Map<String, MethodHandler> methods) {
        this.name = name;
        this.methods = Collections.unmodifiableMap(new LinkedHashMap<>(methods));
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    /** Method name (without the service prefix) to handler, in registration order. */
    public Map<String, MethodHandler> methods() {
        return methods;
    }

    /** Collects methods; each name once. */
    public static final class Builder {
        private final String name;
        private final Map<String, MethodHandler> methods = new LinkedHashMap<>();

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        public Builder method(String methodName, MethodHandler handler) {
            Objects.requireNonNull(handler, "handler");
            RpcMethodRef.checkName(name + "." + methodName);
            if (methods.putIfAbsent(methodName, handler) != null) {
                throw new IllegalArgumentException("method '" + methodName + "' registered twice in service '"
                        + name + "'");
            }
            return this;
        }

        public ServiceDefinition build() {
            if (methods.isEmpty()) {
                throw new IllegalArgumentException("service '" + name + "' has no methods");
            }
            return new ServiceDefinition(name, methods);
        }
    }
}
