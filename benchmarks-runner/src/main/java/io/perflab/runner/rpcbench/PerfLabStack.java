package io.perflab.runner.rpcbench;

import io.perflab.rpc.BenchmarkService;
import io.perflab.rpc.EngineOptions;
import io.perflab.rpc.RpcCallback;
import io.perflab.rpc.RpcClient;
import io.perflab.rpc.RpcException;
import io.perflab.rpc.RpcProxy;
import io.perflab.rpc.RpcServer;
import io.perflab.rpc.ServerConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * rpc-bench on PerfLab's engine: a {@link RpcServer} with the benchmark service, sized by the workload, and a
 * client of one reactor (one connection) per {@linkplain #connect connection}. Sync calls are the engine's
 * blocking stubs; async calls complete on the client's reactor.
 */
final class PerfLabStack implements RpcStack {

    private final EngineOptions options;
    private final Workload workload;
    private final RpcServer server;
    private final List<RpcClient> clients = new ArrayList<>();

    PerfLabStack(EngineOptions options, Workload workload) {
        this.options = options;
        this.workload = workload;
        ServerConfig config = ServerConfig.defaults()
                .withServerReactors(workload.serverReactors())
                .withWorkerThreads(workload.workerThreads())
                .withServiceQueueLength(Math.max(ServerConfig.defaults().serviceQueueLength(),
                        workload.outstandingCalls()));
        this.server = RpcServer.builder().options(options).config(config)
                .addService(BenchmarkService.definition(ServerWork.of(workload.serverWorkNanos()))).start();
    }

    @Override
    public Connection connect(int index) {
        RpcClient client = RpcClient.builder().options(options).reactors(1).build();
        clients.add(client);
        return new ProxyConnection(client.proxy(server.address()));
    }

    @Override
    public void close() {
        clients.forEach(RpcClient::close);
        server.close();
    }

    /** The status and what the engine said, e.g. {@code TIMED_OUT: Calculator.Add timed out after 10000 ms}. */
    private static String describe(RpcException e) {
        return e.status() + ": " + e.detail();
    }

    /** A client's proxy, calling Add or Echo as the workload says. */
    private final class ProxyConnection implements Connection {
        private final RpcProxy proxy;

        ProxyConnection(RpcProxy proxy) {
            this.proxy = proxy;
        }

        @Override
        public void call(int x) throws CallFailedException {
            try {
                if (workload.echo()) {
                    BenchmarkService.echo(proxy, workload.requestBytes(), workload.responseBytes(),
                            Load.CALL_TIMEOUT_MILLIS);
                } else {
                    BenchmarkService.add(proxy, x, 1, Load.CALL_TIMEOUT_MILLIS);
                }
            } catch (RpcException e) {
                throw new CallFailedException(describe(e));
            }
        }

        @Override
        public AsyncCaller asyncCaller(CallListener listener) {
            return new ChainCaller(listener);
        }

        /** One chain's calls; the engine calls this object back on the client's reactor. */
        private final class ChainCaller implements AsyncCaller, RpcCallback<Integer> {
            private final CallListener listener;

            ChainCaller(CallListener listener) {
                this.listener = listener;
            }

            @Override
            public void call(int x) {
                if (workload.echo()) {
                    BenchmarkService.echoAsync(proxy, workload.requestBytes(), workload.responseBytes(),
                            Load.CALL_TIMEOUT_MILLIS, this);
                } else {
                    BenchmarkService.addAsync(proxy, x, 1, Load.CALL_TIMEOUT_MILLIS, this);
                }
            }

            @Override
            public void onSuccess(Integer value) {
                listener.answered();
            }

            @Override
            public void onFailure(RpcException error) {
                listener.failed(describe(error));
            }
        }
    }
}
