package io.perflab.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Call-id correlation: many callers on one connection each get their own answers, on both transports. */
class ConcurrencyTests {

    private static final int CALLERS = 64;
    private static final int CALLS_PER_CALLER = 100;

    static Stream<Arguments> transportsAndWorkers() {
        List<Arguments> cases = new ArrayList<>();
        for (EngineOptions.Transport transport : EngineOptions.Transport.values()) {
            for (EngineOptions.Flush flush : EngineOptions.Flush.values()) {
                cases.add(Arguments.of(transport, flush, 4));
            }
            cases.add(Arguments.of(transport, EngineOptions.Flush.CONSOLIDATED, 0));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} flush={1} workers={2}")
    @MethodSource("transportsAndWorkers")
    void sixtyFourSyncCallersEachGetTheirOwnAnswers(EngineOptions.Transport transport, EngineOptions.Flush flush,
                                                    int workers) throws Exception {
        EngineOptions options = EngineOptions.builder().transport(transport).flush(flush).build();
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        try (RpcServer server = RpcServer.builder().options(options)
                .config(ServerConfig.defaults().withWorkerThreads(workers).withServiceQueueLength(CALLERS))
                .addService(BenchmarkService.definition()).start();
             RpcClient client = RpcClient.builder().options(options).reactors(2).build()) {
            assertThat(server.transport()).isEqualTo(Transports.effective(transport));
            RpcProxy proxy = client.proxy(server.address());
            CyclicBarrier start = new CyclicBarrier(CALLERS);
            List<Future<Integer>> results = new ArrayList<>();
            for (int c = 0; c < CALLERS; c++) {
                int caller = c;
                results.add(callers.submit(() -> {
                    start.await();
                    int ok = 0;
                    for (int i = 0; i < CALLS_PER_CALLER; i++) {
                        int x = caller * 1_000_000 + i;
                        if (i % 10 == 0) {
                            byte[] payload = new byte[64 + caller];
                            java.util.Arrays.fill(payload, (byte) caller);
                            byte[] echoed = BenchmarkService.echo(proxy, payload, payload.length, 10_000);
                            assertThat(echoed).isEqualTo(payload);
                        } else {
                            assertThat(BenchmarkService.add(proxy, x, caller, 10_000)).isEqualTo(x + caller);
                        }
                        ok++;
                    }
                    return ok;
                }));
            }
            for (Future<Integer> r : results) {
                assertThat(r.get(60, TimeUnit.SECONDS)).isEqualTo(CALLS_PER_CALLER);
            }
            assertThat(server.metrics().connectionsAccepted()).isEqualTo(1);
        } finally {
            callers.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void sixtyFourOutstandingAsyncCallsCompleteWithTheirOwnAnswers(EngineOptions.Transport transport)
            throws Exception {
        EngineOptions options = EngineOptions.builder().transport(transport).build();
        try (RpcServer server = RpcServer.builder().options(options)
                .config(ServerConfig.defaults().withWorkerThreads(4).withServiceQueueLength(CALLERS))
                .addService(BenchmarkService.definition()).start();
             RpcClient client = RpcClient.create(options)) {
            RpcProxy proxy = client.proxy(server.address());
            for (int round = 0; round < 20; round++) {
                List<CompletableFuture<Integer>> calls = new ArrayList<>();
                for (int i = 0; i < CALLERS; i++) {
                    CompletableFuture<Integer> f = new CompletableFuture<>();
                    BenchmarkService.addAsync(proxy, round, i, 10_000, new RpcCallback<>() {
                        @Override
                        public void onSuccess(Integer value) {
                            f.complete(value);
                        }

                        @Override
                        public void onFailure(RpcException error) {
                            f.completeExceptionally(error);
                        }
                    });
                    calls.add(f);
                }
                for (int i = 0; i < CALLERS; i++) {
                    assertThat(calls.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(round + i);
                }
            }
        }
    }

    static Stream<EngineOptions.Transport> transports() {
        return Stream.of(EngineOptions.Transport.values());
    }

    @Test
    void responsesMayArriveOutOfOrder() throws Exception {
        CountDownLatch secondDone = new CountDownLatch(1);
        ServiceDefinition order = ServiceDefinition.builder("Order")
                .method("First", (req, resp) -> {
                    if (!secondDone.await(10, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("second call never finished");
                    }
                    resp.writeInt(1);
                })
                .method("Second", (req, resp) -> {
                    resp.writeInt(2);
                    secondDone.countDown();
                })
                .build();
        try (RpcServer server = RpcServer.builder().config(ServerConfig.defaults().withWorkerThreads(2))
                .addService(order).start();
             RpcClient client = RpcClient.create(EngineOptions.defaults())) {
            RpcProxy proxy = client.proxy(server.address());
            RpcFuture<Integer> first = proxy.callFuture(RpcMethodRef.of("Order.First"), RequestWriter.EMPTY,
                    b -> b.readInt(), 10_000);
            RpcFuture<Integer> second = proxy.callFuture(RpcMethodRef.of("Order.Second"), RequestWriter.EMPTY,
                    b -> b.readInt(), 10_000);
            assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }
}
