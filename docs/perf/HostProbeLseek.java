import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
public class HostProbeLseek {
  public static void main(String[] a) throws Exception {
    int cpu=Integer.parseInt(a[0]); double secs=Double.parseDouble(a[1]); int calls=Integer.parseInt(a[2]);
    var mx=ManagementFactory.getThreadMXBean();
    var raf=new RandomAccessFile("/dev/null","r");
    long end=System.nanoTime()+(long)(secs*1e9); long sink=0;
    StringBuilder sb=new StringBuilder();
    while(System.nanoTime()<end){ long w0=System.nanoTime(); long c0=mx.getCurrentThreadCpuTime();
      for(int i=0;i<calls;i++) sink+=raf.getFilePointer();
      long c1=mx.getCurrentThreadCpuTime();
      sb.append(cpu).append(' ').append(w0).append(" 0 ").append(c1-c0).append('\n');
      Thread.sleep(10);}
    System.out.print(sb); System.err.println(sink);
  }
}
