package org.geoshard.mongodb.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonTest {
  /** A run of {@code operations} reads in 10 s using {@code cpuMillis} of CPU. */
  private static ClientRun run(String client, long operations, long cpuMillis) {
    return new ClientRun(client, operations, 0, 10.0, cpuMillis * 1_000_000L, 1.5);
  }

  @Test
  void aRunsFiguresArePerSecondAndPerRead() {
    ClientRun r = run("bare sync", 20_000, 2_500);
    assertThat(r.throughput()).isEqualTo(2_000.0);
    assertThat(r.cpuMicrosPerOperation()).isEqualTo(125.0);
    assertThat(new ClientRun("x", 0, 3, 10.0, 1, 0).cpuMicrosPerOperation()).as("no read answered").isNaN();
  }

  @Test
  void theRatiosAreOfTheMeansOfEachClient() {
    // binding: 1,800 and 2,000 reads/s, 130 and 110 us per read; bare: 2,000 both, 100 us per read.
    Comparison c = new Comparison("mongodb-geo", List.of(run("mongodb-geo", 18_000, 2_340), run("mongodb-geo", 20_000, 2_200)),
        List.of(run("bare sync", 20_000, 2_000), run("bare sync", 20_000, 2_000)));
    assertThat(c.throughputRatio()).isCloseTo(0.95, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(c.cpuRatio()).isCloseTo(1.2, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(c.ratioLine()).isEqualTo("mongodb-geo vs bare driver: throughput 0.95×, CPU per operation 1.20×");
    assertThat(c.goalsMet()).isTrue();
    assertThat(c.goalLine()).isEqualTo("goals: throughput >= 0.9× met, CPU per operation <= 1.3× met");
    assertThat(c.meanLines()).containsExactly(
        "  mongodb-geo        1,900 reads/s (1,800, 2,000)    120.0 us CPU per read (130.0, 110.0)",
        "  bare sync          2,000 reads/s (2,000, 2,000)    100.0 us CPU per read (100.0, 100.0)");
  }

  @Test
  void aMissedGoalIsSaidAndTheAsyncBindingIsComparedWithTheReactiveDriver() {
    Comparison c = new Comparison("mongodb-async", List.of(run("mongodb-async", 17_000, 2_800)),
        List.of(run("bare reactive", 20_000, 2_000)));
    assertThat(c.ratioLine()).isEqualTo("mongodb-async vs bare driver: throughput 0.85×, CPU per operation 1.65×");
    assertThat(c.goalsMet()).isFalse();
    assertThat(c.goalLine()).isEqualTo("goals: throughput >= 0.9× NOT met, CPU per operation <= 1.3× NOT met");
    assertThat(c.meanLines().get(1)).startsWith("  bare reactive ");
  }

  @Test
  void aComparisonNeedsRunsOfBoth() {
    assertThatThrownBy(() -> new Comparison("mongodb-geo", List.of(), List.of(run("bare sync", 1, 1))))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
