package org.geoshard.harness.stats;

import java.util.ArrayList;
import java.util.List;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalListener;

/**
 * The run's throughput second by second (operations that succeeded, all but CLEANUP), for the plateau
 * statistics: a failed operation is never throughput.
 */
public final class Timeline implements IntervalListener {
  /** One interval: its index ({@code second}), length and operations that succeeded. */
  public record Point(long second, long durationMs, long succeeded) {
    public double opsPerSecond() {
      return succeeded * 1000.0 / durationMs;
    }
  }

  private final List<Point> points = new ArrayList<>();

  @Override
  public synchronized void onInterval(Interval interval) {
    points.add(new Point(interval.index(), interval.durationMs(), interval.succeeded()));
  }

  public synchronized List<Point> points() {
    return List.copyOf(points);
  }
}
