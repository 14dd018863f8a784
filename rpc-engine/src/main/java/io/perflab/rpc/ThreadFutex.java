package io.perflab.rpc;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import jdk.incubator.foreign.CLinker;
import jdk.incubator.foreign.FunctionDescriptor;
import jdk.incubator.foreign.MemoryAccess;
import jdk.incubator.foreign.MemoryAddress;
import jdk.incubator.foreign.MemoryHandles;
import jdk.incubator.foreign.MemorySegment;
import jdk.incubator.foreign.ResourceScope;

/**
 * A thread's own futex word, on which it sleeps with {@code futex(2)} called directly through Java 17's foreign
 * linker ({@code jdk.incubator.foreign}): a permit as {@code LockSupport} keeps one, without HotSpot's
 * {@code Parker}, which on Linux is a pthread mutex and condition variable.
 *
 * <p>The word is {@link #EMPTY}, {@link #PERMIT} or {@link #SLEEPING}. {@link #park()} takes a permit if there
 * is one, else marks the word sleeping and waits in the kernel for it to change; {@link #unpark()} leaves a
 * permit and makes the system call only if the word said the owner sleeps. A wait ends after at most
 * {@link #POLL_NANOS} so that its owner sees an interrupt (a thread in a system call cannot be interrupted);
 * like {@code LockSupport.park}, it may return for no reason, and callers wait in a loop.
 *
 * <p>Only {@link FutexCompletion} uses this class, and loads it only after {@link FutexCompletion#unavailable()}
 * found the module and native access there: every reference to the incubating module is in this class.
 */
final class ThreadFutex {

    /** How long one wait may last before its owner looks at its interrupt status: 50 ms. */
    static final long POLL_NANOS = 50_000_000L;

    private static final int EMPTY = 0;
    private static final int PERMIT = 1;
    private static final int SLEEPING = -1;

    private static final int FUTEX_WAIT_PRIVATE = 128;
    private static final int FUTEX_WAKE_PRIVATE = 129;
    /** {@code SYS_futex}: 202 on x86-64, 98 on AArch64 (the generic table). */
    private static final long SYS_FUTEX = "amd64".equals(System.getProperty("os.arch")) ? 202 : 98;

    private static final MethodHandle SYSCALL;
    private static final VarHandle WORD = MemoryHandles.varHandle(int.class, ByteOrder.nativeOrder());
    private static final ThreadLocal<ThreadFutex> CURRENT = ThreadLocal.withInitial(ThreadFutex::new);

    static {
        // long syscall(long number, ...): the futex word, the operation, the value and the timeout are its varargs
        SYSCALL = CLinker.getInstance().downcallHandle(
                CLinker.systemLookup().lookup("syscall").orElseThrow(
                        () -> new UnsupportedOperationException("the C library has no syscall function")),
                MethodType.methodType(long.class, long.class, MemoryAddress.class, int.class, int.class,
                        MemoryAddress.class),
                FunctionDescriptor.of(CLinker.C_LONG, CLinker.C_LONG, CLinker.asVarArg(CLinker.C_POINTER),
                        CLinker.asVarArg(CLinker.C_INT), CLinker.asVarArg(CLinker.C_INT),
                        CLinker.asVarArg(CLinker.C_POINTER)));
    }

    /** The word, then a {@code struct timespec} of {@link #POLL_NANOS}; freed when this object is collected. */
    private final MemorySegment memory;
    private final MemoryAddress word;
    private final MemoryAddress timeout;

    private ThreadFutex() {
        memory = MemorySegment.allocateNative(24, 8, ResourceScope.newImplicitScope());
        MemoryAccess.setIntAtOffset(memory, 0, EMPTY);
        MemoryAccess.setLongAtOffset(memory, 8, POLL_NANOS / 1_000_000_000L);
        MemoryAccess.setLongAtOffset(memory, 16, POLL_NANOS % 1_000_000_000L);
        word = memory.address();
        timeout = memory.address().addOffset(8);
    }

    /** The calling thread's futex. */
    static ThreadFutex current() {
        return CURRENT.get();
    }

    /**
     * Takes the permit, or waits until {@link #unpark()} leaves one, {@link #POLL_NANOS} pass or the kernel wakes
     * the thread for another reason. Only the owning thread calls it.
     */
    void park() {
        if (WORD.compareAndSet(memory, 0L, PERMIT, EMPTY)) {
            return;
        }
        if (WORD.compareAndSet(memory, 0L, EMPTY, SLEEPING)) {
            futex(FUTEX_WAIT_PRIVATE, SLEEPING, timeout); // returns at once if the word is no longer SLEEPING
        }
        WORD.setVolatile(memory, 0L, EMPTY); // the permit, if one came, is consumed
    }

    /** Leaves a permit; wakes the owner if it sleeps. Any thread may call it. */
    void unpark() {
        if ((int) WORD.getAndSet(memory, 0L, PERMIT) == SLEEPING) {
            futex(FUTEX_WAKE_PRIVATE, 1, MemoryAddress.NULL);
        }
    }

    private void futex(int operation, int value, MemoryAddress timeout) {
        try {
            long ignored = (long) SYSCALL.invokeExact(SYS_FUTEX, word, operation, value, timeout);
        } catch (Throwable e) {
            throw new IllegalStateException("futex(2) failed", e);
        }
    }
}
