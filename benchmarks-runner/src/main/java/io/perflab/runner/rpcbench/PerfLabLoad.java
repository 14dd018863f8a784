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
import java.util.concurrent.CountDownLatch;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * rpc-bench on PerfLab's engine: a {@link RpcServer} with the benchmark service, and clients of one reactor each.
 *
 * <p>Sync mode: {@code clientThreads} threads, each with its own client (one reactor, one connection) and one
 * outstanding call. Async mode: {@code clientThreads} clients carrying {@code asyncConcurrency} call chains; each
 * completion issues the chain's next call from the client's event loop.
 */
abstract class PerfLabLoad extends Load {

    final EngineOptions options;
    final Workload workload;
    final RpcServer server;
    private final List<RpcClient> clients = new ArrayList<>();

    private PerfLabLoad(EngineOptions options, Workload workload) {
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

    static Load open(EngineOptions options, Workload workload) {
        PerfLabLoad load = workload.mode() == CallMode.SYNC ? new Sync(options, workload)
                : new Async(options, workload);
        return connected(load);
    }


    RpcProxy newProxy() {
        RpcClient client = RpcClient.builder().options(options).reactors(1).build();
        clients.add(client);
        return client.proxy(server.address());
    }

    void fail(RpcException e) {
        fail(e.status() + ": " + e.getMessage());
    }

    void issue(RpcProxy proxy, int x, RpcCallback<Integer> callback) {
        if (workload.echo()) {
            BenchmarkService.echoAsync(proxy, workload.requestBytes(), workload.responseBytes(),
                    CALL_TIMEOUT_MILLIS, callback);
        } else {
            BenchmarkService.addAsync(proxy, x, 1, CALL_TIMEOUT_MILLIS, callback);
        }
    }

    int call(RpcProxy proxy, int x) {
        return workload.echo()
                ? BenchmarkService.echo(proxy, workload.requestBytes(), workload.responseBytes(), CALL_TIMEOUT_MILLIS)
                : BenchmarkService.add(proxy, x, 1, CALL_TIMEOUT_MILLIS);
    }

    @Override
    void release() {
        clients.forEach(RpcClient::close);
        server.close();
    }

    /** rpc-bench's sync mode: one thread, one client, one outstanding call each. */
    private static final class Sync extends PerfLabLoad {

        Sync(EngineOptions options, Workload workload) {
            super(options, workload);
        }

        @Override
        void connect() {
            for (int i = 0; i < workload.clientThreads(); i++) {
                RpcProxy proxy = newProxy();
                SingleWriterRecorder recorder = newRecorder();
                Thread thread = new Thread(() -> callInLoop(proxy, recorder), "rpc-bench-client-" + i);
                thread.setDaemon(true);
                clientThreads.add(thread);
            }
        }

        private void callInLoop(RpcProxy proxy, SingleWriterRecorder recorder) {
            int x = 0;
            while (proceed()) {
                long start = System.nanoTime();
                try {
                    call(proxy, x++);
                    record(recorder, start);
                } catch (RpcException e) {
                    fail(e);
                }
            }
        }
    }

    /** rpc-bench's async mode: call chains spread over the clients, each completion issuing the next call. */
    private static final class Async extends PerfLabLoad {
        private final List<Chain> chains = new ArrayList<>();

        Async(EngineOptions options, Workload workload) {
            super(options, workload);
        }

        @Override
        void connect() {
            List<RpcProxy> proxies = new ArrayList<>();
            List<SingleWriterRecorder> perClient = new ArrayList<>();
            for (int i = 0; i < workload.clientThreads(); i++) {
                proxies.add(newProxy());
                perClient.add(newRecorder());
            }
            for (int i = 0; i < workload.asyncConcurrency(); i++) {
                chains.add(new Chain(proxies.get(i % proxies.size()), perClient.get(i % proxies.size())));
            }
            chainsEnded = new CountDownLatch(chains.size());
        }

        @Override
        void start() {
            chains.forEach(Chain::next);
        }

        /**
         * One outstanding call at a time. Completions run on the client's event loop, the only writer of the
         * client's recorder; a failed call ends its chain, since retrying at once from the callback could
         * recurse on a dead connection.
         */
        private final class Chain implements RpcCallback<Integer> {
            private final RpcProxy proxy;
            private final SingleWriterRecorder recorder;
            private long start;
            private int x;
            private boolean ended;

            Chain(RpcProxy proxy, SingleWriterRecorder recorder) {
                this.proxy = proxy;
                this.recorder = recorder;
            }

            void next() {
                if (!running) {
                    end();
                    return;
                }
                if (deferWhilePaused(this::next)) {
                    return;
                }
                start = System.nanoTime();
                issue(proxy, x++, this);
            }

            @Override
            public void onSuccess(Integer value) {
                record(recorder, start);
                next();
            }

            @Override
            public void onFailure(RpcException error) {
                fail(error);
                end();
            }

            private void end() {
                if (!ended) {
                    ended = true;
                    chainsEnded.countDown();
                }
            }
        }
    }
}
