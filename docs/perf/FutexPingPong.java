import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteOrder;
import java.util.concurrent.locks.LockSupport;
import jdk.incubator.foreign.CLinker;
import jdk.incubator.foreign.FunctionDescriptor;
import jdk.incubator.foreign.MemoryAddress;
import jdk.incubator.foreign.MemoryHandles;
import jdk.incubator.foreign.MemorySegment;
import jdk.incubator.foreign.ResourceScope;

/**
 * Two threads hand a turn back and forth, each waking the other and then waiting for it: the cost of one wait and
 * one wake-up each way, as a sync call pays once per call. {@code park} waits in LockSupport.park (HotSpot's Parker:
 * a pthread mutex and condition variable), {@code futex} in futex(2) called directly through the foreign linker, as
 * completion=notification and completion=futex do. Prints the CPU of both threads per round trip, user and total
 * (their thread CPU clocks).
 *
 * javac --release 17 --add-modules jdk.incubator.foreign -d out FutexPingPong.java
 * java --add-modules=jdk.incubator.foreign --enable-native-access=ALL-UNNAMED -cp out FutexPingPong park|futex N
 */
public class FutexPingPong {

    interface Turn {
        void give();

        void await();
    }

    /** A flag and park/unpark. */
    static final class Park implements Turn {
        private volatile boolean given;
        private volatile Thread waiter;

        public void give() {
            given = true;
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }

        public void await() {
            waiter = Thread.currentThread();
            while (!given) {
                LockSupport.park(this);
            }
            waiter = null;
            given = false;
        }
    }

    /** A native word: 0 not given, 1 given, 2 not given and its waiter asleep in futex(2). */
    static final class Futex implements Turn {
        private static final VarHandle WORD = MemoryHandles.varHandle(int.class, ByteOrder.nativeOrder());
        private static final MethodHandle SYSCALL = CLinker.getInstance().downcallHandle(
                CLinker.systemLookup().lookup("syscall").orElseThrow(),
                MethodType.methodType(long.class, long.class, MemoryAddress.class, int.class, int.class,
                        MemoryAddress.class),
                FunctionDescriptor.of(CLinker.C_LONG, CLinker.C_LONG, CLinker.asVarArg(CLinker.C_POINTER),
                        CLinker.asVarArg(CLinker.C_INT), CLinker.asVarArg(CLinker.C_INT),
                        CLinker.asVarArg(CLinker.C_POINTER)));
        private static final long SYS_FUTEX = "amd64".equals(System.getProperty("os.arch")) ? 202 : 98;
        private final MemorySegment word = MemorySegment.allocateNative(4, 4, ResourceScope.newImplicitScope());

        public void give() {
            if ((int) WORD.getAndSet(word, 0L, 1) == 2) {
                futex(129, 1); // FUTEX_WAKE_PRIVATE
            }
        }

        public void await() {
            while (!WORD.compareAndSet(word, 0L, 1, 0)) {
                if (WORD.compareAndSet(word, 0L, 0, 2) || (int) WORD.get(word, 0L) == 2) {
                    futex(128, 2); // FUTEX_WAIT_PRIVATE while the word is 2
                }
            }
        }

        private void futex(int operation, int value) {
            try {
                long ignored = (long) SYSCALL.invokeExact(SYS_FUTEX, word.address(), operation, value,
                        MemoryAddress.NULL);
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        boolean futex = args[0].equals("futex");
        int n = Integer.parseInt(args[1]);
        Turn ping = futex ? new Futex() : new Park();
        Turn pong = futex ? new Futex() : new Park();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] other = new long[2];
        Thread ponger = new Thread(() -> {
            long user = threads.getCurrentThreadUserTime();
            long cpu = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                ping.await();
                pong.give();
            }
            other[0] = threads.getCurrentThreadUserTime() - user;
            other[1] = threads.getCurrentThreadCpuTime() - cpu;
        });
        ponger.start();
        long wall = System.nanoTime();
        long user = threads.getCurrentThreadUserTime();
        long cpu = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
            ping.give();
            pong.await();
        }
        user = threads.getCurrentThreadUserTime() - user;
        cpu = threads.getCurrentThreadCpuTime() - cpu;
        ponger.join();
        wall = System.nanoTime() - wall;
        System.out.printf("%-5s round trips %d  wall %.0f ns  user %.0f ns  cpu %.0f ns  (per round trip)%n",
                args[0], n, (double) wall / n, (double) (user + other[0]) / n, (double) (cpu + other[1]) / n);
    }
}
