package io.perflab.runner.rpcbench;

/**
 * One stack under rpc-bench's load: a running server and its clients' connections to it. Each stack supplies two
 * primitives, a blocking call and an asynchronous call with a listener; {@link Load} owns the client threads and
 * call chains that use them, so loops, latency recording and failure accounting are one piece of code for all
 * stacks, and only what lies between a call and its answer differs.
 */
interface RpcStack extends AutoCloseable {

    /**
     * Connects client {@code index} with its own event loop and connection, as each engine client has its own
     * reactor. A stack may also make one call here, so that a lazy connection is up before the load starts.
     */
    Connection connect(int index);

    /** Releases clients and server, once the load has stopped calling. */
    @Override
    void close();

    /** One client's connection to the server: called by one thread (sync) or by call chains (async). */
    interface Connection {

        /**
         * Makes one call with argument {@code x} (Add's {@code x}; Echo ignores it) and waits for its answer,
         * checked as the engine's client checks it.
         *
         * @throws CallFailedException saying what went wrong
         */
        void call(int x) throws CallFailedException;

        /**
         * A caller of asynchronous calls whose outcomes go to {@code listener} on this connection's event loop.
         * One per call chain, made before the load starts, so that a call allocates no adapter; a chain has one
         * call outstanding at a time.
         */
        AsyncCaller asyncCaller(CallListener listener);
    }

    /** Starts asynchronous calls on a connection, for one call chain. */
    interface AsyncCaller {

        /** Starts a call with argument {@code x}; its outcome goes to the chain's listener. */
        void call(int x);
    }

    /** The outcome of an asynchronous call, told on the connection's event loop. */
    interface CallListener {

        /** The answer came and is what the workload expects. */
        void answered();

        /** The call failed; {@code description} says how, for the report. */
        void failed(String description);

        /**
         * The call failed and its connection is closed for good, as {@link CallFailedException#connectionLost()}
         * says of a blocking call: no later call on it can succeed. By default, a failure like any other.
         */
        default void connectionLost(String description) {
            failed(description);
        }
    }
}
