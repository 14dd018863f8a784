package io.perflab.rpc;

import java.util.List;
import java.util.Optional;

/**
 * {@code completion=futex}: Kudu's {@code Notification} as seed 003 built it, a count of one on an atomic word whose
 * waiter sleeps in {@code futex(2)} directly. The state word is {@link StateWordCompletion}'s, as in
 * {@link NotificationCompletion}, with the waiter's {@link ThreadFutex}: the waiter sleeps on its own thread's futex
 * word instead of in {@code LockSupport.park}, so neither side goes through HotSpot's {@code Parker} and the pthread
 * mutex and condition variable under it, which {@code completion=notification} still pays for.
 *
 * <p>The system call is made through the foreign linker that Java 17 incubates: the JVM must run on {@link #PLATFORM}
 * (Linux on x86-64 or AArch64) with {@link #JVM_FLAGS}. Trial JVMs are given the flags by the runner, and the service
 * gives an experiment that uses it only to hosts of that platform ({@link EngineOptions#platforms()}); anywhere else
 * {@link #unavailable()} says what is missing, and an engine asked for this completion refuses to start
 * ({@link #requireAvailable()}).
 * An interrupt ends an interruptible wait within {@link ThreadFutex#POLL_NANOS}, not at once.
 */
final class FutexCompletion extends StateWordCompletion<ThreadFutex> {

    /** What a JVM needs for this completion. */
    static final List<String> JVM_FLAGS =
            List.of("--add-modules=jdk.incubator.foreign", "--enable-native-access=ALL-UNNAMED");

    /** Where it runs: Linux on x86-64 and AArch64, whose numbers of {@code futex(2)} {@link ThreadFutex} knows. */
    static final Platform PLATFORM = new Platform("Linux", List.of("amd64", "aarch64"));

    FutexCompletion() {
        requireAvailable();
    }

    /** Why this JVM cannot wait on a futex directly, if it cannot. */
    static Optional<String> unavailable() {
        return Availability.REASON;
    }

    /** Throws, saying what is missing, unless this JVM can wait on a futex directly. */
    static void requireAvailable() {
        unavailable().ifPresent(reason -> {
            throw new IllegalStateException("completion=futex cannot run in this JVM: " + reason);
        });
    }

    @Override
    ThreadFutex me() {
        return ThreadFutex.current();
    }

    @Override
    void sleep(ThreadFutex me) {
        // an interrupt does not end a futex wait, which lasts a poll at most; one already there skips it
        if (!Thread.currentThread().isInterrupted()) {
            me.park();
        }
    }

    @Override
    void wake(ThreadFutex waiter) {
        waiter.unpark();
    }

    /** Looked at once, on first use. */
    private static final class Availability {

        static final Optional<String> REASON = probe();

        private static Optional<String> probe() {
            String os = System.getProperty("os.name", "");
            String arch = System.getProperty("os.arch", "");
            if (!PLATFORM.includes(os, arch)) {
                return Optional.of("futex(2) is called directly on " + PLATFORM + " only, this is " + os + " on "
                        + arch);
            }
            if (ModuleLayer.boot().findModule("jdk.incubator.foreign").isEmpty()) {
                return Optional.of("the JVM was started without " + String.join(" ", JVM_FLAGS));
            }
            try {
                ThreadFutex.current();
                return Optional.empty();
            } catch (ExceptionInInitializerError e) {
                return Optional.of(e.getCause() instanceof IllegalCallerException
                        ? "native access is not enabled (" + JVM_FLAGS.get(1) + ")" : failed(e.getCause()));
            } catch (RuntimeException | LinkageError e) {
                return Optional.of(failed(e));
            }
        }

        /** What the linker said, without its exception's class name. */
        private static String failed(Throwable e) {
            String said = e == null ? null : e.getMessage();
            return "the foreign linker could not call the C library's syscall function"
                    + (said == null || said.isBlank() ? "" : " (" + said + ")");
        }
    }
}
