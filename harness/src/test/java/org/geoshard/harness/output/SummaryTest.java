package org.geoshard.harness.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.geoshard.harness.measure.LatencyStats;
import org.geoshard.harness.measure.StopReason;
import org.junit.jupiter.api.Test;

class SummaryTest {
  private static LatencyStats stats(long count, long errors) {
    return new LatencyStats(count, errors, 1000, 10, 900, 2000, 3000, 4000, 5000, 9000, null);
  }

  @Test
  void eachOperationNamesItsAchievedRateOfSuccessfulOperations() {
    Map<String, LatencyStats> operations = new LinkedHashMap<>();
    operations.put("HISTORY_INSERT", stats(40_000, 0));
    operations.put("LKL_READ", stats(5_010, 3));
    RunResult result = new RunResult(Path.of("run"), StopReason.TIME, 20_000, 45_010, 3, 2250.35, 12, 0,
        stats(45_010, 3), operations, null, null, null, null);

    assertThat(Summary.toText(result, operations))
        .contains("[HISTORY_INSERT], Throughput(ops/sec), 2000\n")
        .contains("[LKL_READ], Throughput(ops/sec), 250.35\n");
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> perOperation =
        (Map<String, Map<String, Object>>) Summary.toJson(result, operations).get("perOperation");
    assertThat(perOperation.get("HISTORY_INSERT")).containsEntry("throughput", 2000.0);
    assertThat(perOperation.get("LKL_READ")).containsEntry("throughput", 250.35);
  }
}
