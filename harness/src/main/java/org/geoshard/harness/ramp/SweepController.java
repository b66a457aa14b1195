package org.geoshard.harness.ramp;

import java.util.List;
import org.geoshard.harness.api.ThreadGroups.ThreadGroup;
import org.geoshard.harness.measure.StopReason;

/**
 * A sweep: a thread group's offered rate walks through a list, each held for the group's step
 * interval, while the main threads run as they do; every step is measured (and judged by the rule,
 * for information: a broken rule does not end a sweep). The run completes after the last rate.
 */
public final class SweepController extends SteppedController {
  private final ThreadGroup group;
  private int index;

  public SweepController(ThreadGroup group, SlaRule rule) {
    super(RampMode.RATE, rule, group.stepInterval().toSeconds());
    if (group.stepInterval().toSeconds() < 1) {
      throw new IllegalArgumentException("a sweep step must last at least one second: " + group.stepInterval());
    }
    this.group = group;
  }

  public ThreadGroup group() {
    return group;
  }

  public List<Double> rates() {
    return group.rates();
  }

  @Override
  int plannedSteps() {
    return group.rates().size();
  }

  @Override
  synchronized int threads() {
    return group.threads();
  }

  @Override
  synchronized Double offered() {
    return group.rates().get(index);
  }

  @Override
  synchronized Decision next(StepRecord step) {
    if (index + 1 >= group.rates().size()) {
      return new Stop(StopReason.COMPLETED);
    }
    index++;
    return new NextStep(group.threads(), group.rates().get(index));
  }
}
