package io.perflab.runner.rpcbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeout;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.perflab.rpc.EngineOptions;
import io.perflab.rpc.Transports;
import io.perflab.runner.metering.ProcessMeter.GcTotals;
import io.perflab.runner.metering.ProcessMeter;
import io.perflab.runner.metering.ResourceUsage;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shared driver against a fake stack: who calls, on which connection, and what is counted. */
class LoadTests {

    private static final Workload SYNC = Workload.DEFAULTS.withStack(Stack.NETTY).withClientThreads(3);
    private static final Workload ASYNC = SYNC.withMode(CallMode.ASYNC).withClientThreads(2).withAsyncConcurrency(5);

    @Test
    void syncLoadCallsEachConnectionFromItsOwnThreadAndCountsFailures() throws InterruptedException {
        FakeStack stack = new FakeStack(3);
        CountDownLatch enoughCalls = new CountDownLatch(3);
        stack.blocking = (connection, x) -> {
            connection.callingThreads.add(Thread.currentThread().getName());
            if (x == 2) {
                throw new CallFailedException("refused call " + x + " on connection " + connection.index);
            }
            if (x == 5) {
                enoughCalls.countDown();
            }
        };

        try (Load load = Load.open(stack, SYNC)) {
            load.start();
            assertThat(enoughCalls.await(10, TimeUnit.SECONDS)).isTrue();
            load.stop();

            for (FakeConnection connection : stack.connections) {
                assertThat(connection.callingThreads).containsExactly("netty-bench-client-" + connection.index);
            }
            assertThat(load.failed.get()).isEqualTo(3);
            assertThat(load.firstError.get()).startsWith("refused call 2 on connection ");
            int calls = stack.connections.stream().mapToInt(c -> c.calls.get()).sum();
            assertThat(load.swapLatencies().getTotalCount()).isEqualTo(calls - 3);
        }
        assertThat(stack.closed).isTrue();
    }

    @Test
    void asyncChainsAreSpreadOverTheConnectionsAndAFailureEndsItsChain() throws InterruptedException {
        FakeStack stack = new FakeStack(2);
        ExecutorService eventLoop = Executors.newSingleThreadExecutor();
        CountDownLatch chainsFailed = new CountDownLatch(5);
        stack.async = (connection, listener, x) -> eventLoop.execute(() -> {
            connection.calls.incrementAndGet();
            if (x < 3) {
                listener.answered();
            } else {
                listener.failed("chain's call " + x + " refused");
                chainsFailed.countDown();
            }
        });

        try (Load load = Load.open(stack, ASYNC)) {
            load.start();
            assertThat(chainsFailed.await(10, TimeUnit.SECONDS)).isTrue();
            load.stop();

            assertThat(stack.connections.get(0).callers.get()).isEqualTo(3);
            assertThat(stack.connections.get(1).callers.get()).isEqualTo(2);
            assertThat(stack.connections.get(0).calls.get()).isEqualTo(3 * 4);
            assertThat(stack.connections.get(1).calls.get()).isEqualTo(2 * 4);
            assertThat(load.failed.get()).isEqualTo(5);
            assertThat(load.firstError.get()).isEqualTo("chain's call 3 refused");
            assertThat(load.swapLatencies().getTotalCount()).isEqualTo(5 * 3);
        } finally {
            eventLoop.shutdownNow();
        }
    }

    /**
     * A bare-Netty call without an answer by its deadline closes its connection, on which no call can succeed again:
     * its client thread failed every later call at once, counting failures at full speed until the load stopped.
     */
    @Test
    void aClientWhoseConnectionIsLostEndsTheLoadWithItsReasonInsteadOfFailingCallsInALoop()
            throws InterruptedException {
        NettyMessages messages = new NettyMessages(SYNC);
        EmbeddedChannel silentServer = new EmbeddedChannel(new NettyFrameDecoder(), new NettyClientHandler(messages));
        NettyConnection impatient = new NettyConnection(silentServer, messages, 50);
        Set<Thread> clients = ConcurrentHashMap.newKeySet();
        CountDownLatch bothCalled = new CountDownLatch(2);
        FakeStack stack = new FakeStack(2);
        stack.blocking = (connection, x) -> {
            if (clients.add(Thread.currentThread())) {
                bothCalled.countDown();
            }
            if (connection.index == 0) {
                impatient.call(x);
            } else {
                LockSupport.parkNanos(50_000);
            }
        };
        Workload twoClients = SYNC.withClientThreads(2);

        try (Load load = Load.open(stack, twoClients)) {
            load.start();
            assertThat(bothCalled.await(10, TimeUnit.SECONDS)).isTrue();
            for (Thread client : clients) {
                client.join(TimeUnit.SECONDS.toMillis(10));
                assertThat(client.isAlive()).as(client.getName() + " has ended").isFalse();
            }

            assertThat(load.failed.get()).as("one failed call, not one per turn of the loop").isEqualTo(1);
            assertThat(load.firstError.get()).startsWith("no answer within 50 ms; the connection is closed")
                    .endsWith("; the load stopped, as a client without its connection would leave the windows "
                            + "short of the workload's clients");
            assertThat(stack.connections.get(0).calls.get()).isEqualTo(1);
            assertThat(load.isRunning()).isFalse();
            assertTimeout(Duration.ofSeconds(5), load::pause, "ended clients are idle: no call deadline to wait out");
        } finally {
            silentServer.finishAndReleaseAll();
        }
    }

    /**
     * An async bare-Netty call that its server never answers fails at its connection's deadline, which closes the
     * connection (answers carry no call ids): every chain on it fails, and the load stops with the call's timeout as
     * its first error. The chains used to wait for their answers until the load gave up on them after 11 s, and the
     * windows measured the stall without a failed call.
     */
    @Test
    void anAsyncBareNettyCallThatIsNeverAnsweredFailsAtItsDeadlineAndStopsTheLoad() {
        Workload threeChainsOnOneConnection = ASYNC.withClientThreads(1).withAsyncConcurrency(3);
        SilentNettyStack stack = new SilentNettyStack(threeChainsOnOneConnection, 200);

        try (Load load = Load.open(stack, threeChainsOnOneConnection)) {
            load.start();
            assertTimeout(Duration.ofSeconds(5), load::pause, "the chains end, idle, at their calls' deadline");

            assertThat(load.failed.get()).as("the calls in flight").isEqualTo(3);
            assertThat(load.firstError.get()).isEqualTo("Calculator.Add call 1 of this connection timed out after "
                    + "200 ms; the connection is closed, failing 2 other calls in flight, as its answers carry no "
                    + "call ids and the late answer would be taken for the next call's; the load stopped, as the "
                    + "chains of a lost connection would leave the windows short of the workload's outstanding "
                    + "calls");
            assertThat(load.isRunning()).isFalse();
            assertThat(load.swapLatencies().getTotalCount()).isZero();
        }
    }

    /**
     * A pause waits until every chain is idle, and a chain that has ended is: one whose call failed while the pause
     * waited wakes it, where the pause used to wait out the call deadline.
     */
    @Test
    void aPauseReturnsOnceTheChainsItWaitsForHaveEnded() throws Exception {
        FakeStack stack = new FakeStack(2);
        List<RpcStack.CallListener> inFlight = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch allInFlight = new CountDownLatch(5);
        stack.async = (connection, listener, x) -> {
            inFlight.add(listener);
            allInFlight.countDown();
        };
        ExecutorService pausing = Executors.newSingleThreadExecutor();

        try (Load load = Load.open(stack, ASYNC)) {
            load.start();
            assertThat(allInFlight.await(10, TimeUnit.SECONDS)).isTrue();
            Future<?> pause = pausing.submit(load::pause);
            while (load.pauses() == 0) {
                Thread.onSpinWait(); // once counted, the pause waits for the chains
            }

            for (RpcStack.CallListener chain : inFlight) {
                chain.failed("refused");
            }

            pause.get(5, TimeUnit.SECONDS);
            assertThat(load.failed.get()).isEqualTo(5);
        } finally {
            pausing.shutdownNow();
        }
    }

    /**
     * The warmup pauses and resumes the load after each of its first steps, so that the client loops are compiled
     * with the pause in their profile (see {@link SteadyWarmup#PAUSED_STEPS}); the load runs on after it.
     */
    @Test
    void theWarmupPausesTheLoadAfterEachOfItsFirstStepsAndLeavesItRunning() throws InterruptedException {
        FakeStack stack = new FakeStack(3);
        stack.blocking = (connection, x) -> LockSupport.parkNanos(50_000);
        AtomicLong clock = new AtomicLong();
        LongSupplier aStepPerRead = () -> clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(1200)); // no wait parks
        ProcessMeter meter = new ProcessMeter(aStepPerRead, () -> ResourceUsage.ZERO, () -> 0L,
                () -> new GcTotals(0, 0));
        Workload thirtySeconds = SYNC.withWarmup(Warmup.fixed(Duration.ofSeconds(30)));

        try (Load load = Load.open(stack, thirtySeconds)) {
            load.start();
            WarmupOutcome outcome = new SteadyWarmup(thirtySeconds, meter, aStepPerRead, () -> 0L).run(load);

            // a fixed warmup runs its time and judges nothing: it is never "settled"
            assertThat(outcome.settled()).as("a fixed warmup").isFalse();
            assertThat(load.pauses()).isEqualTo(SteadyWarmup.PAUSED_STEPS);
            int before = stack.connections.stream().mapToInt(c -> c.calls.get()).sum();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (stack.connections.stream().mapToInt(c -> c.calls.get()).sum() == before
                    && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertThat(stack.connections.stream().mapToInt(c -> c.calls.get()).sum()).as("calls after the warmup")
                    .isGreaterThan(before);
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aLoadClosedBeforeItStartedWaitsForNoChain() {
        FakeStack stack = new FakeStack(2);
        Load load = Load.open(stack, ASYNC);

        load.close(); // a chain that never started never ends: waiting for it would take the 11 s call deadline

        assertThat(stack.closed).isTrue();
    }

    @Test
    void aConnectionThatCannotBeMadeClosesTheStack() {
        FakeStack stack = new FakeStack(1);

        assertThatThrownBy(() -> Load.open(stack, SYNC)).hasMessage("connection 1 refused");
        assertThat(stack.closed).isTrue();
    }

    private interface BlockingBehaviour {
        void call(FakeConnection connection, int x) throws CallFailedException;
    }

    private interface AsyncBehaviour {
        void call(FakeConnection connection, RpcStack.CallListener listener, int x);
    }

    /** A stack of {@code connectable} connections whose calls do what the test says. */
    private static final class FakeStack implements RpcStack {
        final List<FakeConnection> connections = new ArrayList<>();
        final int connectable;
        BlockingBehaviour blocking;
        AsyncBehaviour async;
        volatile boolean closed;

        FakeStack(int connectable) {
            this.connectable = connectable;
        }

        @Override
        public Connection connect(int index) {
            if (index >= connectable) {
                throw new IllegalStateException("connection " + index + " refused");
            }
            FakeConnection connection = new FakeConnection(this, index);
            connections.add(connection);
            return connection;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /**
     * Bare-Netty clients, with the call deadline given, of a server on loopback that reads every request and never
     * answers.
     */
    private static final class SilentNettyStack implements RpcStack {
        private static final EngineOptions.Transport NIO = EngineOptions.Transport.NIO;
        private final NettyMessages messages;
        private final long callTimeoutMillis;
        private final EventLoopGroup loops = Transports.newGroup(NIO, 2, "silent-netty");
        private final Channel server;

        SilentNettyStack(Workload workload, long callTimeoutMillis) {
            this.messages = new NettyMessages(workload);
            this.callTimeoutMillis = callTimeoutMillis;
            this.server = new ServerBootstrap().group(loops).channel(Transports.serverChannel(NIO))
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel channel) {
                            channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object request) {
                                    ReferenceCountUtil.release(request);
                                }
                            });
                        }
                    })
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).syncUninterruptibly().channel();
        }

        @Override
        public Connection connect(int index) {
            Channel channel = new Bootstrap().group(loops).channel(Transports.clientChannel(NIO))
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel channel) {
                            channel.pipeline().addLast(new NettyFrameDecoder(),
                                    new NettyClientHandler(messages, callTimeoutMillis));
                        }
                    })
                    .connect(server.localAddress()).syncUninterruptibly().channel();
            return new NettyConnection(channel, messages, callTimeoutMillis);
        }

        @Override
        public void close() {
            server.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
    }

    private static final class FakeConnection implements RpcStack.Connection {
        final FakeStack stack;
        final int index;
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger callers = new AtomicInteger();
        final Set<String> callingThreads = ConcurrentHashMap.newKeySet();

        FakeConnection(FakeStack stack, int index) {
            this.stack = stack;
            this.index = index;
        }

        @Override
        public void call(int x) throws CallFailedException {
            calls.incrementAndGet();
            stack.blocking.call(this, x);
        }

        @Override
        public RpcStack.AsyncCaller asyncCaller(RpcStack.CallListener listener) {
            callers.incrementAndGet();
            return x -> stack.async.call(this, listener, x);
        }
    }
}
