package org.geoshard.harness.stats;

import java.util.ArrayList;
import java.util.List;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalListener;
import org.geoshard.harness.measure.IntervalSample;
import org.geoshard.harness.measure.Totals;

/** The run's throughput second by second (all operations but CLEANUP), for the plateau statistics. */
public final class Timeline implements IntervalListener {
  /** One interval: its index ({@code second}), length and operations. */
  public record Point(long second, long durationMs, long operations) {
    public double opsPerSecond() {
      return operations * 1000.0 / durationMs;
    }
  }

  private final List<Point> points = new ArrayList<>();

  @Override
  public synchronized void onInterval(Interval interval) {
    long operations = 0;
    for (IntervalSample sample : interval.samples()) {
      if (!Totals.CLEANUP.equals(sample.operation())) {
        operations += sample.count();
      }
    }
    points.add(new Point(interval.index(), interval.durationMs(), operations));
  }

  public synchronized List<Point> points() {
    return List.copyOf(points);
  }
}
