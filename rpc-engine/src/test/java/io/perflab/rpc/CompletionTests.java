package io.perflab.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The five ways a synchronous caller waits, used directly. */
class CompletionTests {

    @ParameterizedTest
    @EnumSource(EngineOptions.Completion.class)
    void signalBeforeAwaitReturnsAtOnce(EngineOptions.Completion kind) {
        Completion c = Completion.create(kind);
        c.signal();
        assertThat(c.awaitInterruptibly()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(EngineOptions.Completion.class)
    void waiterWakesWhenSignalledFromAnotherThreadAndCanBeReused(EngineOptions.Completion kind) throws Exception {
        Completion c = Completion.create(kind);
        for (int round = 0; round < 200; round++) {
            c.reset();
            CountDownLatch waiting = new CountDownLatch(1);
            AtomicBoolean woke = new AtomicBoolean();
            Thread waiter = new Thread(() -> {
                waiting.countDown();
                woke.set(c.awaitInterruptibly());
            });
            waiter.start();
            waiting.await();
            c.signal();
            waiter.join(10_000);
            assertThat(waiter.isAlive()).isFalse();
            assertThat(woke).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(EngineOptions.Completion.class)
    void interruptEndsTheInterruptibleWaitOnly(EngineOptions.Completion kind) throws Exception {
        Completion c = Completion.create(kind);
        Thread.currentThread().interrupt();
        assertThat(c.awaitInterruptibly()).isFalse();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();

        Thread signaller = new Thread(c::signal);
        Thread.currentThread().interrupt();
        signaller.start();
        c.awaitUninterruptibly();
        Thread.interrupted();
        signaller.join(TimeUnit.SECONDS.toMillis(10));
    }

    /**
     * An interrupt that arrives with the signal is never lost: either the wait reports it ({@code false},
     * status cleared, so the caller cancels and restores it) or the wait returns {@code true} and the status
     * is still set. Signal and interrupt come back to back, so the waiter often wakes to find both.
     */
    @ParameterizedTest
    @EnumSource(EngineOptions.Completion.class)
    void anInterruptThatComesWithTheSignalIsReportedOrKept(EngineOptions.Completion kind) throws Exception {
        Completion c = Completion.create(kind);
        int lost = 0;
        for (int round = 0; round < 2_000; round++) {
            c.reset();
            CountDownLatch waiting = new CountDownLatch(1);
            CountDownLatch interrupted = new CountDownLatch(1);
            AtomicBoolean kept = new AtomicBoolean(true);
            Thread waiter = new Thread(() -> {
                waiting.countDown();
                boolean signalled = c.awaitInterruptibly();
                while (interrupted.getCount() > 0) { // not await(): it would take the interrupt
                    Thread.onSpinWait();
                }
                kept.set(!signalled || Thread.currentThread().isInterrupted());
            });
            waiter.start();
            waiting.await();
            c.signal();
            waiter.interrupt();
            interrupted.countDown();
            waiter.join(10_000);
            assertThat(waiter.isAlive()).isFalse();
            if (!kept.get()) {
                lost++;
            }
        }
        assertThat(lost).as("rounds whose interrupt was neither reported nor kept").isZero();
    }

    @ParameterizedTest
    @EnumSource(EngineOptions.Completion.class)
    void optionSelectsItsOwnImplementation(EngineOptions.Completion kind) {
        Class<?> expected = switch (kind) {
            case NOTIFICATION -> NotificationCompletion.class;
            case MONITOR -> MonitorCompletion.class;
            case CONDVAR -> CondvarCompletion.class;
            case FUTEX -> FutexCompletion.class;
            case FUTURE -> FutureCompletion.class;
        };
        assertThat(Completion.create(kind)).isExactlyInstanceOf(expected);
    }

    /**
     * POSIX semantics: the broadcast wakes the waiter at once, while the signaller still holds the mutex, so the
     * woken waiter runs and sleeps again, now on the mutex, until the unlock. (A Java monitor or a
     * {@code Condition} would leave it asleep on the condition until then.)
     */
    @Test
    void condvarWakesTheWaiterWhileTheSignallerHoldsTheMutex() throws Exception {
        ReentrantLock mutex = new ReentrantLock();
        CondvarCompletion c = new CondvarCompletion(mutex);
        AtomicBoolean woke = new AtomicBoolean();
        Thread waiter = new Thread(() -> woke.set(c.awaitInterruptibly()));
        waiter.start();
        awaitState(() -> LockSupport.getBlocker(waiter) == c, "the waiter parks on the condition");

        mutex.lock();
        try {
            c.signal();
            awaitState(() -> mutex.hasQueuedThread(waiter) && LockSupport.getBlocker(waiter) != c,
                    "the waiter, woken under the mutex, queues for it");
            assertThat(woke).isFalse();
        } finally {
            mutex.unlock();
        }
        waiter.join(10_000);
        assertThat(waiter.isAlive()).isFalse();
        assertThat(woke).isTrue();
    }

    /**
     * The futex completion's waiter sleeps in the kernel on its own futex word, not in {@code LockSupport.park}: a
     * parked thread is {@code WAITING}, whereas this one is {@code RUNNABLE} (in native code) inside the
     * {@code futex} system call, and uses no CPU while it waits. Then an interrupt ends the wait (within one poll).
     */
    @Test
    void futexWaiterSleepsInTheSystemCallItselfAndAnInterruptEndsTheWait() throws Exception {
        assertThat(FutexCompletion.unavailable()).isEmpty();
        Completion c = Completion.create(EngineOptions.Completion.FUTEX);
        AtomicBoolean signalled = new AtomicBoolean(true);
        AtomicBoolean interruptKept = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            signalled.set(c.awaitInterruptibly());
            interruptKept.set(Thread.currentThread().isInterrupted());
        }, "futexwait" + System.nanoTime() % 1000);
        waiter.start();
        Path task = nativeThread(waiter.getName());
        awaitState(() -> inFutexCall(task), "the waiter sleeps in futex(2)");
        long cpu = threadCpuTicks(task);
        Thread.sleep(300);
        assertThat(waiter.getState()).isEqualTo(Thread.State.RUNNABLE);
        // still in it: the wait leaves the call every 50 ms to look at its interrupt, and a busy machine may catch it
        // between two calls, so the look waits for the next
        awaitState(() -> inFutexCall(task), "the waiter sleeps in futex(2) again after 300 ms");
        assertThat(threadCpuTicks(task) - cpu).as("CPU ticks used while waiting 300 ms").isLessThanOrEqualTo(2);

        waiter.interrupt();
        waiter.join(10_000);
        assertThat(waiter.isAlive()).isFalse();
        assertThat(signalled).as("the wait reports the interrupt").isFalse();
        assertThat(interruptKept).as("and clears it for the caller, who cancels the call").isFalse();
    }

    /** {@code /proc/self/task/<tid>} of the live thread named {@code name} (the JVM names native threads so). */
    private static Path nativeThread(String name) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
                for (Path task : tasks.toList()) {
                    try {
                        if (Files.readString(task.resolve("comm")).strip().equals(name)) {
                            return task;
                        }
                    } catch (IOException gone) {
                        // a thread that ended while listed
                    }
                }
            }
            Thread.sleep(1);
        }
        throw new AssertionError("no native thread named " + name);
    }

    /** Whether the thread is inside the futex system call: the first field of its {@code syscall} file. */
    private static boolean inFutexCall(Path task) {
        try {
            String number = Files.readString(task.resolve("syscall")).split(" ")[0];
            return number.equals(System.getProperty("os.arch").equals("amd64") ? "202" : "98");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** utime + stime of the thread, in clock ticks. */
    private static long threadCpuTicks(Path task) throws IOException {
        String stat = Files.readString(task.resolve("stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static void awaitState(BooleanSupplier state, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!state.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached within 10 s: " + what);
            }
            Thread.sleep(1);
        }
    }
}
