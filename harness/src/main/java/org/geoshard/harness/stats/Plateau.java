package org.geoshard.harness.stats;

import java.util.List;

/**
 * Statistics of per-second throughput over the plateau: the peak step's window of a ramp, or the
 * whole of a fixed run, without its first {@code stats.warmup} seconds and without a short last
 * interval. Cut by rule, never by hand.
 */
public record Plateau(long fromSecond, long toSecond, int seconds, double meanOpsPerSec, double minOpsPerSec,
                      double maxOpsPerSec, double ci95Low, double ci95High, int batchSeconds, int batches,
                      boolean batchesIndependent) {

  /** Seconds shorter than this share of a full second are the cut-off tail of a run. */
  static final double FULL_INTERVAL = 0.5;

  /**
   * @param fromSecond first interval of the window, before the warm-up is cut
   * @param toSecond last interval of the window
   * @return null when nothing is left after the cuts; else its {@code fromSecond} and {@code toSecond}
   *     are the first and last seconds it holds (a 60 s run: 6 to 60, not the cut-off tail second 61)
   */
  public static Plateau of(List<Timeline.Point> points, long fromSecond, long toSecond, long warmupSeconds) {
    long first = fromSecond + warmupSeconds;
    List<Timeline.Point> kept = points.stream()
        .filter(p -> p.second() >= first && p.second() <= toSecond && p.durationMs() >= FULL_INTERVAL * 1000)
        .toList();
    if (kept.isEmpty()) {
      return null;
    }
    BatchMeans.Result r = BatchMeans.of(kept.stream().mapToDouble(Timeline.Point::opsPerSecond).toArray());
    return new Plateau(kept.get(0).second(), kept.get(kept.size() - 1).second(), kept.size(), r.mean(), r.min(),
        r.max(), r.ci95Low(), r.ci95High(), r.batchLength(), r.batches(), r.independent());
  }
}
