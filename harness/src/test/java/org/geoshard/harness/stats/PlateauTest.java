package org.geoshard.harness.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlateauTest {
  /** Seconds 1 to 60 of 1,000 ms with 100 + second operations, then the run's cut-off tail: second 61, 300 ms. */
  private static List<Timeline.Point> sixtySecondsAndATail() {
    List<Timeline.Point> points = new ArrayList<>();
    for (int second = 1; second <= 60; second++) {
      points.add(new Timeline.Point(second, 1000, 100 + second));
    }
    points.add(new Timeline.Point(61, 300, 5));
    return points;
  }

  @Test
  void aSixtySecondRunsPlateauIsSecondsSixToSixtyWithoutTheTail() {
    Plateau plateau = Plateau.of(sixtySecondsAndATail(), 1, 61, 5);

    assertThat(plateau.fromSecond()).isEqualTo(6);
    assertThat(plateau.toSecond()).isEqualTo(60);
    assertThat(plateau.seconds()).isEqualTo(55);
    assertThat(plateau.minOpsPerSec()).isEqualTo(106);
    assertThat(plateau.maxOpsPerSec()).isEqualTo(160);
  }

  @Test
  void aWarmUpLongerThanTheRunLeavesNoPlateau() {
    assertThat(Plateau.of(sixtySecondsAndATail(), 1, 61, 61)).isNull();
  }
}
