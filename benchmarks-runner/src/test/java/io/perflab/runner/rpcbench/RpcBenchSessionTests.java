package io.perflab.runner.rpcbench;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.rpc.EngineOptions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** A running load driven from outside: paused and resumed, and windows measured at the times it is told. */
class RpcBenchSessionTests {

    private static final Workload SHORT = Workload.DEFAULTS.withClientThreads(2).withAsyncConcurrency(6)
            .withServerReactors(1).withWarmup(Warmup.fixed(Duration.ofMillis(200))).withRun(Duration.ofMillis(300));

    @ParameterizedTest
    @CsvSource({"PERFLAB,SYNC", "PERFLAB,ASYNC", "GRPC,SYNC", "GRPC,ASYNC", "NETTY,SYNC", "NETTY,ASYNC"})
    void aPausedLoadMakesNoCallsUntilItIsResumed(Stack stack, CallMode mode) {
        Workload workload = SHORT.withStack(stack).withMode(mode);
        try (Load load = stack.open(EngineOptions.defaults(), workload)) {
            load.start();
            assertThat(callsWithin(load, 10_000)).isPositive();

            load.pause();
            load.swapLatencies();
            await(300);
            long whilePaused = load.swapLatencies().getTotalCount();
            load.resume();
            // calls come back on a busy machine too, from code the JIT may still be compiling: wait for the first
            long afterResume = callsWithin(load, 10_000);

            assertThat(whilePaused).isZero();
            assertThat(afterResume).isPositive();
            assertThat(load.failed.get()).isZero();
        }
    }

    /** Deferred chains end as soon as the load stops: closing waits for no call that will never come. */
    @Test
    void closingAPausedLoadEndsItsClientsAtOnce() {
        Load load = Stack.PERFLAB.open(EngineOptions.defaults(), SHORT.withMode(CallMode.ASYNC));
        load.start();
        await(100);
        load.pause();
        long start = System.nanoTime();

        load.close();

        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.MILLISECONDS.toNanos(Load.CALL_TIMEOUT_MILLIS));
    }

    @Test
    void aWindowStartsAndEndsAtTheTimesItIsToldOnTheMonotonicClock() {
        RpcBench bench = RpcBench.of(EngineOptions.defaults(), SHORT);
        try (RpcBench.Session session = bench.open()) {
            assertThat(session.warmUp()).containsKey("warmup_evidence");
            session.pause();
            long startAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
            long endAt = startAt + TimeUnit.MILLISECONDS.toNanos(400);

            RpcBench.Measured measured = session.measure(startAt, endAt);

            assertThat(measured.startNanos()).isBetween(startAt, startAt + TimeUnit.MILLISECONDS.toNanos(100));
            long end = measured.startNanos() + measured.result().window().elapsedNanos();
            assertThat(end).isBetween(endAt, endAt + TimeUnit.MILLISECONDS.toNanos(100));
            assertThat(measured.result().requests()).isPositive();
        }
    }

    /** A fixed warmup judges nothing: its session entries say how long it ran, never that it settled. */
    @Test
    void aFixedWarmupIsNotCalledSettled() {
        try (RpcBench.Session session = RpcBench.of(EngineOptions.defaults(), SHORT).open()) {
            assertThat(session.warmUp()).doesNotContainKey("warmup_settled")
                    .containsKeys("warmup_seconds", "warmup_setup_seconds", "warmup_evidence");
        }
    }

    /** Lets the load run for a while: what is measured is what happens in that time, not when it ends. */
    /** The calls that came back from the moment of the call until the first did, or {@code millis} passed. */
    private static long callsWithin(Load load, long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        long calls = 0;
        while (calls == 0 && System.nanoTime() < end) {
            await(20);
            calls += load.swapLatencies().getTotalCount();
        }
        return calls;
    }

    private static void await(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        long remaining;
        while ((remaining = end - System.nanoTime()) > 0) {
            LockSupport.parkNanos(remaining);
        }
    }
}
