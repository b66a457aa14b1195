package org.geoshard.harness.ramp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.api.ThreadGroups.ThreadGroup;
import org.junit.jupiter.api.Test;

/** What a ramp or a sweep says about its step in status lines. */
class StepProgressTest {
  @Test
  void aThreadRampSaysItsStepAndThreads() throws Exception {
    Properties p = new Properties();
    p.setProperty("ramp.mode", "threads");
    p.setProperty("ramp.start", "5");
    assertThat(new RampController(RampSettings.fromProperties(p)).progress()).isEqualTo("step 1, 5 threads");
  }

  @Test
  void aSweepSaysWhichStepOfHowMany() {
    ThreadGroup writers = new ThreadGroup("writers", 4, List.of(0.0, 400.0, 1000.0), Duration.ofSeconds(60));
    assertThat(new SweepController(writers, RampSettings.none().rule()).progress())
        .isEqualTo("step 1 of 3, 4 threads, offered 0 ops/s");
  }
}
