// How much of a spinning thread's wall time the guest never sees: reads the monotonic clock in a loop for ROUNDS
// windows of SECONDS each and prints, per window, the thread's CPU time over the wall time and the share of the wall
// time spent in gaps between two readings longer than 1 µs, 10 µs, 100 µs and 1 ms. Run two at once, one per vCPU:
//   taskset -c 0 java docs/perf/ClockGaps.java 0.5 100 > clock-gaps-cpu0.txt &
//   taskset -c 1 java docs/perf/ClockGaps.java 0.5 100 > clock-gaps-cpu1.txt
// (docs/PERFORMANCE.md, "What the guest does not see").
public class ClockGaps {
  public static void main(String[] a) {
    double secs = Double.parseDouble(a[0]);
    for (int round = 0; round < Integer.parseInt(a[1]); round++) {
      long end = System.nanoTime() + (long)(secs*1e9);
      long prev = System.nanoTime(), start = prev;
      long n=0, g1=0,g10=0,g100=0,g1000=0; long t1=0,t10=0,t100=0,t1000=0;
      long cpu0 = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
      while (true) {
        long now = System.nanoTime(); n++;
        long d = now - prev; prev = now;
        if (d > 1000) { g1++; t1+=d; }
        if (d > 10000) { g10++; t10+=d; }
        if (d > 100000) { g100++; t100+=d; }
        if (d > 1000000) { g1000++; t1000+=d; }
        if (now > end) break;
      }
      long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0;
      double wall = prev - start;
      System.out.printf("wall %.2fs cpu/wall %.4f reads %.1fns gaps>1us %d (%.2f%%) >10us %d (%.2f%%) >100us %d (%.2f%%) >1ms %d (%.2f%%)%n",
        wall/1e9, cpu/wall, wall/n, g1, 100*t1/wall, g10, 100*t10/wall, g100, 100*t100/wall, g1000, 100*t1000/wall);
    }
  }
}
