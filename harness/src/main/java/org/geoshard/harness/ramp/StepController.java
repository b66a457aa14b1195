package org.geoshard.harness.ramp;

import java.util.concurrent.TimeUnit;
import org.geoshard.harness.measure.IntervalListener;
import org.geoshard.harness.measure.StopReason;

/**
 * Judges a run step by step as its intervals arrive (on the sampler's thread) and tells the runner
 * what to do next (on the runner's thread): a ramp adds load until the latency rule breaks, a sweep
 * walks through a list of rates.
 */
public interface StepController extends IntervalListener {
  /** What the runner should do after a step. */
  sealed interface Decision {
  }

  /** Go on with this load: threads in a closed loop, or the offered rate in an open loop. */
  record NextStep(int threads, double offeredRate) implements Decision {
  }

  /** Stop the run. */
  record Stop(StopReason reason) implements Decision {
  }

  /** The next decision, or null if none came within the timeout. */
  Decision nextDecision(long timeout, TimeUnit unit) throws InterruptedException;

  /** The step in progress for status lines ({@code step 3 of 5, 8 threads}), or null. */
  default String progress() {
    return null;
  }

  /** Closes the step in progress as partial and returns every step. */
  RampResult finish();
}
