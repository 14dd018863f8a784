package io.perflab.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Failure behaviour of calls over real loopback TCP. */
class CallFailureTests {

    private final Gate gate = new Gate();
    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        gate.open();
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    private RpcServer server(ServerConfig config) {
        RpcServer server = RpcServer.builder().config(config).addService(BenchmarkService.definition())
                .addService(gate.service()).start();
        resources.add(server);
        return server;
    }

    private RpcProxy proxy(RpcServer server) {
        RpcClient client = RpcClient.create(EngineOptions.defaults());
        resources.add(client);
        return client.proxy(server.address());
    }

    private static RpcStatus statusOf(CompletableFuture<?> f) throws InterruptedException {
        try {
            f.get(10, TimeUnit.SECONDS);
            return RpcStatus.OK;
        } catch (ExecutionException e) {
            return ((RpcException) e.getCause()).status();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("call did not complete", e);
        }
    }

    @Test
    void unknownMethodAndBadBodyAreAnsweredOnTheSameConnection() {
        RpcServer server = server(ServerConfig.defaults());
        RpcProxy proxy = proxy(server);

        assertThatThrownBy(() -> proxy.call(RpcMethodRef.of("Calculator.Divide"), RequestWriter.EMPTY,
                ResponseReader.LENGTH, 5000))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.status()).isEqualTo(RpcStatus.NO_SUCH_METHOD);
                    assertThat(e.detail()).contains("Calculator.Divide");
                });
        assertThatThrownBy(() -> proxy.call(BenchmarkService.ADD, b -> b.writeMedium(1), ResponseReader.LENGTH, 5000))
                .isInstanceOfSatisfying(RpcException.class,
                        e -> assertThat(e.status()).isEqualTo(RpcStatus.INVALID_REQUEST));
        assertThat(BenchmarkService.add(proxy, 1, 2, 5000)).isEqualTo(3);
        assertThat(server.metrics().connectionsAccepted()).isEqualTo(1);
    }

    @Test
    void handlerExceptionBecomesRemoteErrorWithItsMessage() {
        RpcServer server = server(ServerConfig.defaults());
        RpcProxy proxy = proxy(server);
        assertThatThrownBy(() -> BenchmarkService.echo(proxy, 0, -1, 5000))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.status()).isEqualTo(RpcStatus.INVALID_REQUEST);
                    assertThat(e.detail()).contains("responseBytes is negative");
                });
        assertThatThrownBy(() -> proxy.call(BenchmarkService.ADD, b -> b.writeLong(1), body -> {
            throw new IllegalStateException("cannot parse");
        }, 5000)).isInstanceOfSatisfying(RpcException.class, e -> {
            assertThat(e.status()).isEqualTo(RpcStatus.INVALID_REQUEST);
            assertThat(e.detail()).contains("cannot decode the response").contains("cannot parse");
        });
    }

    @Test
    void timeoutFailsTheCallAtTheDeadlineAndTheClientStaysUsable() {
        RpcServer server = server(ServerConfig.defaults().withWorkerThreads(2));
        RpcProxy proxy = proxy(server);
        BenchmarkService.add(proxy, 0, 0, 5000); // connect first: the deadline measures the call only

        long start = System.nanoTime();
        assertThatThrownBy(() -> BenchmarkService.sleep(proxy, 1000, 100))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.status()).isEqualTo(RpcStatus.TIMED_OUT);
                    assertThat(e.detail()).contains("Calculator.Sleep timed out after 100 ms");
                });
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(elapsedMillis).isBetween(100L, 400L);
        assertThat(BenchmarkService.add(proxy, 2, 2, 5000)).isEqualTo(4);
    }

    /**
     * Deadlines are timed per connection by one task set for the earliest: a short timeout behind a long one on the
     * same connection moves it earlier, and once that call has expired the long one is still timed.
     */
    @Test
    void aShortTimeoutBehindALongOneExpiresAtItsOwnDeadline() throws Exception {
        RpcServer server = server(ServerConfig.defaults().withWorkerThreads(1));
        RpcProxy proxy = proxy(server);
        long start = System.nanoTime();
        RpcFuture<Integer> longer = proxy.callFuture(Gate.BLOCK, b -> b.writeInt(1), b -> b.readInt(), 900);
        gate.awaitEntered(1);
        RpcFuture<Integer> shorter = proxy.callFuture(Gate.BLOCK, b -> b.writeInt(2), b -> b.readInt(), 100);

        assertThat(statusOf(shorter)).isEqualTo(RpcStatus.TIMED_OUT);
        long shortMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(statusOf(longer)).isEqualTo(RpcStatus.TIMED_OUT);
        long longMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        // before the long call's deadline: the task was moved earlier; the long call expired at all: it was timed again
        assertThat(shortMillis).as("the short call's deadline").isBetween(100L, 899L);
        assertThat(longMillis).as("the long call's deadline").isBetween(900L, 5_000L);
    }

    @Test
    void lateResponseAfterTimeoutIsDropped() throws Exception {
        RpcServer server = server(ServerConfig.defaults().withWorkerThreads(1));
        RpcProxy proxy = proxy(server);
        RpcFuture<Integer> blocked = proxy.callFuture(Gate.BLOCK, b -> b.writeInt(7), b -> b.readInt(), 100);
        gate.awaitEntered(1);
        assertThat(statusOf(blocked)).isEqualTo(RpcStatus.TIMED_OUT);

        gate.open();
        // Same worker, FIFO: this answer comes after the late one, which must have been dropped.
        assertThat(BenchmarkService.add(proxy, 5, 6, 5000)).isEqualTo(11);
        assertThat(server.metrics().callsHandled()).isEqualTo(2);
    }

    @Test
    void callWhoseDeadlinePassedInTheQueueIsAnsweredTimedOutWithoutRunning() throws Exception {
        AtomicLong now = new AtomicLong();
        RpcServer server = RpcServer.builder()
                .config(ServerConfig.defaults().withWorkerThreads(1).withServiceQueueLength(2))
                .addService(gate.service()).nanoClock(now::get).start();
        resources.add(server);
        RpcProxy proxy = proxy(server);
        RpcFuture<Integer> blocker = proxy.callFuture(Gate.BLOCK, RequestWriter.EMPTY, b -> b.readInt(), 10_000);
        gate.awaitEntered(1);
        RpcFuture<Integer> queued = proxy.callFuture(Gate.COUNT, RequestWriter.EMPTY, b -> b.readInt(), 5_000);
        RpcFuture<Integer> notExpired = proxy.callFuture(Gate.COUNT, RequestWriter.EMPTY, b -> b.readInt(), 60_000);
        // Read in order on one connection: when this one overflows, both calls above are queued.
        RpcFuture<Integer> overflow = proxy.callFuture(Gate.COUNT, RequestWriter.EMPTY, b -> b.readInt(), 60_000);
        assertThat(statusOf(overflow)).isEqualTo(RpcStatus.SERVER_TOO_BUSY);

        now.addAndGet(TimeUnit.SECONDS.toNanos(6));
        gate.open();

        assertThat(statusOf(blocker)).isEqualTo(RpcStatus.OK);
        assertThatThrownBy(() -> queued.get(10, TimeUnit.SECONDS)).cause()
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.status()).isEqualTo(RpcStatus.TIMED_OUT);
                    assertThat(e.detail()).contains("while the call waited in the service queue");
                });
        assertThat(notExpired.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(server.metrics().timedOutInQueue()).isEqualTo(1);
        assertThat(gate.counted).hasValue(1);
    }

    @Test
    void fullServiceQueueAnswersServerTooBusyAndLosesNothing() throws Exception {
        RpcServer server = server(ServerConfig.defaults().withWorkerThreads(1).withServiceQueueLength(2));
        RpcProxy proxy = proxy(server);
        List<RpcFuture<Integer>> calls = new ArrayList<>();
        calls.add(proxy.callFuture(Gate.BLOCK, b -> b.writeInt(0), b -> b.readInt(), 10_000));
        gate.awaitEntered(1);
        for (int i = 1; i < 10; i++) {
            int n = i;
            calls.add(proxy.callFuture(Gate.BLOCK, b -> b.writeInt(n), b -> b.readInt(), 10_000));
        }
        // The seven that found the queue full are answered while the worker is still held.
        for (int i = 3; i < 10; i++) {
            assertThat(statusOf(calls.get(i))).isEqualTo(RpcStatus.SERVER_TOO_BUSY);
        }
        gate.open();
        for (int i = 0; i < 3; i++) {
            assertThat(calls.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(i);
        }
        assertThat(server.metrics().queueOverflows()).isEqualTo(7);
    }

    @Test
    void stoppingTheServerFailsEveryPendingCallWithNetworkError() throws Exception {
        RpcServer server = server(ServerConfig.defaults().withWorkerThreads(1).withServiceQueueLength(10));
        RpcProxy proxy = proxy(server);
        List<RpcFuture<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            calls.add(proxy.callFuture(Gate.BLOCK, RequestWriter.EMPTY, b -> b.readInt(), 30_000));
        }
        gate.awaitEntered(1);
        server.close();
        for (RpcFuture<Integer> call : calls) {
            assertThat(statusOf(call)).isEqualTo(RpcStatus.NETWORK_ERROR);
        }
        assertThatThrownBy(() -> BenchmarkService.add(proxy, 1, 1, 1000))
                .isInstanceOfSatisfying(RpcException.class,
                        e -> assertThat(e.status()).isEqualTo(RpcStatus.NETWORK_ERROR));
    }

    @Test
    void connectionResetFailsPendingCallsWithNetworkError() throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            RpcClient client = RpcClient.create(EngineOptions.defaults());
            resources.add(client);
            RpcProxy proxy = client.proxy(new InetSocketAddress(fake.getInetAddress(), fake.getLocalPort()));
            List<RpcFuture<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                calls.add(proxy.callFuture(BenchmarkService.ADD, b -> b.writeInt(1).writeInt(1), b -> b.readInt(),
                        30_000));
            }
            try (Socket accepted = fake.accept()) {
                InputStream in = accepted.getInputStream();
                in.readNBytes(5 + 3 * (4 + 10 + 14 + 8)); // preamble and the three requests
                accepted.setSoLinger(true, 0); // close with RST
            }
            for (RpcFuture<Integer> call : calls) {
                assertThat(statusOf(call)).isEqualTo(RpcStatus.NETWORK_ERROR);
            }
        }
    }

    @Test
    void closingTheClientFailsPendingCallsWithShutdown() throws Exception {
        RpcServer server = server(ServerConfig.defaults());
        RpcClient client = RpcClient.create(EngineOptions.defaults());
        RpcProxy proxy = client.proxy(server.address());
        RpcFuture<Integer> pending = proxy.callFuture(Gate.BLOCK, RequestWriter.EMPTY, b -> b.readInt(), 30_000);
        gate.awaitEntered(1);
        client.close();
        assertThat(statusOf(pending)).isEqualTo(RpcStatus.SHUTDOWN);
        assertThatThrownBy(() -> BenchmarkService.add(proxy, 1, 1, 1000))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.status()).isEqualTo(RpcStatus.SHUTDOWN));
    }

    @Test
    void connectingToNothingIsNetworkError() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        RpcClient client = RpcClient.create(EngineOptions.defaults());
        resources.add(client);
        RpcProxy proxy = client.proxy(new InetSocketAddress("127.0.0.1", port));
        assertThatThrownBy(() -> BenchmarkService.add(proxy, 1, 1, 1000))
                .isInstanceOfSatisfying(RpcException.class,
                        e -> assertThat(e.status()).isEqualTo(RpcStatus.NETWORK_ERROR));
    }

    @Test
    void cancellingAnAsyncCallCompletesItCancelledAndDropsTheLateResponse() throws Exception {
        RpcServer server = server(ServerConfig.defaults().withWorkerThreads(1));
        RpcProxy proxy = proxy(server);
        AtomicReference<RpcException> failure = new AtomicReference<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        long token = proxy.callAsync(Gate.BLOCK, RequestWriter.EMPTY, b -> b.readInt(), 30_000,
                new RpcCallback<Integer>() {
                    @Override
                    public void onSuccess(Integer value) {
                        done.completeExceptionally(new AssertionError("cancelled call succeeded"));
                    }

                    @Override
                    public void onFailure(RpcException error) {
                        failure.set(error);
                        done.complete(null);
                    }
                });
        gate.awaitEntered(1);
        proxy.cancel(token);
        done.get(10, TimeUnit.SECONDS);
        assertThat(failure.get().status()).isEqualTo(RpcStatus.CANCELLED);

        RpcFuture<Integer> second = proxy.callFuture(Gate.BLOCK, b -> b.writeInt(9), b -> b.readInt(), 30_000);
        assertThat(second.cancel(true)).isTrue();
        gate.open();
        assertThat(BenchmarkService.add(proxy, 3, 4, 5000)).isEqualTo(7);
    }

    @Test
    void throwingCallbackDoesNotBreakTheConnection() throws Exception {
        RpcServer server = server(ServerConfig.defaults());
        RpcProxy proxy = proxy(server);
        CompletableFuture<Void> called = new CompletableFuture<>();
        BenchmarkService.addAsync(proxy, 1, 1, 5000, new RpcCallback<>() {
            @Override
            public void onSuccess(Integer value) {
                called.complete(null);
                throw new IllegalStateException("callback bug");
            }

            @Override
            public void onFailure(RpcException error) {
                called.completeExceptionally(error);
            }
        });
        called.get(10, TimeUnit.SECONDS);
        assertThat(BenchmarkService.add(proxy, 2, 2, 5000)).isEqualTo(4);
        assertThat(server.metrics().connectionsAccepted()).isEqualTo(1);
    }

    @Test
    void interruptingASyncCallerCancelsItsCall() throws Exception {
        for (EngineOptions.Completion completion : EngineOptions.Completion.values()) {
            RpcServer server = server(ServerConfig.defaults().withWorkerThreads(2));
            RpcClient client = RpcClient.create(EngineOptions.builder().completion(completion).build());
            resources.add(client);
            RpcProxy proxy = client.proxy(server.address());
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
            Thread caller = new Thread(() -> {
                try {
                    proxy.call(Gate.BLOCK, RequestWriter.EMPTY, b -> b.readInt(), 30_000);
                } catch (Throwable t) {
                    thrown.set(t);
                }
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            });
            caller.start();
            gate.awaitEntered(1);
            caller.interrupt();
            caller.join(10_000);
            assertThat(caller.isAlive()).isFalse();
            assertThat(thrown.get()).isInstanceOfSatisfying(RpcException.class,
                    e -> assertThat(e.status()).as(completion.name()).isEqualTo(RpcStatus.CANCELLED));
            assertThat(stillInterrupted.get()).isTrue();
            assertThat(BenchmarkService.add(proxy, 1, 1, 5000)).isEqualTo(2);
        }
    }
}
