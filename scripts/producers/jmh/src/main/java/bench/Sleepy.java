package bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** Two SampleTime benchmarks: a short computation and a 50 µs park (a wide, timer-bound spectrum). */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
public class Sleepy {
  private double x = 1.0;

  @Benchmark
  public double compute() {
    for (int i = 0; i < 2000; i++) x = Math.sqrt(x + i);
    return x;
  }

  @Benchmark
  public void park() {
    LockSupport.parkNanos(50_000);
  }
}
