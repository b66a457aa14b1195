package org.geoshard.harness.run;

import java.time.Duration;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalListener;
import org.geoshard.harness.measure.IntervalSample;
import org.geoshard.harness.measure.Totals;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a phase that no longer does anything: when operations have failed and none has succeeded for
 * {@code giveup.s} seconds (a database that is gone), waiting longer only adds errors. Judged on the
 * intervals' own times, so it needs no clock. Operations that are merely slow, or records a binding
 * holds in a batch, are neither successes nor failures and never trigger it.
 */
final class GiveUpWatch implements IntervalListener {
  private static final Logger LOG = LoggerFactory.getLogger(GiveUpWatch.class);

  private final long afterMs;
  private final Runnable giveUp;
  private long lastSuccessEpochMs;
  private long failedSince;
  private boolean fired;

  /**
   * @param after how long without a success, with failures, before giving up; zero never gives up
   * @param startEpochMs the start of the phase (a phase that never succeeds counts from there)
   * @param giveUp called once, on the sampler's thread
   */
  GiveUpWatch(Duration after, long startEpochMs, Runnable giveUp) {
    this.afterMs = after.toMillis();
    this.lastSuccessEpochMs = startEpochMs;
    this.giveUp = giveUp;
  }

  @Override
  public void onInterval(Interval interval) {
    if (fired || afterMs == 0) {
      return;
    }
    if (interval.succeeded() > 0) {
      lastSuccessEpochMs = interval.endEpochMs();
      failedSince = 0;
      return;
    }
    failedSince += interval.samples().stream()
        .filter(s -> !Totals.CLEANUP.equals(s.operation())).mapToLong(IntervalSample::errors).sum();
    if (failedSince > 0 && interval.endEpochMs() - lastSuccessEpochMs >= afterMs) {
      fired = true;
      LOG.error("Nothing has succeeded for {} s and {} operations failed in that time: giving up ({} = {}).",
          (interval.endEpochMs() - lastSuccessEpochMs) / 1000, failedSince, RunSettings.GIVE_UP, afterMs / 1000);
      giveUp.run();
    }
  }
}
