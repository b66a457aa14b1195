package org.geoshard.postgis.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class YcsbOutputTest {
  @Test
  void theRateCountsTheSuccessfulQueriesOfTheSecondsAfterTheWarmUp(@TempDir Path folder) throws Exception {
    Files.writeString(folder.resolve("summary.json"), "{\"operations\": 9000, \"errors\": 10, \"succeeded\": 8990}");
    Files.writeString(folder.resolve("timeseries.csv"), """
        second,startEpochMs,intervalMs,operation,ops,errors,opsPerSec,p50Us,p95Us,p98Us,p99Us,maxUs,threads
        1,1000,1000,GEO_NEAR,1000,0,1000,1,1,1,1,1,4
        2,2000,1000,GEO_NEAR,3000,10,2990,1,1,1,1,1,4
        3,3000,1000,GEO_NEAR,4000,0,4000,1,1,1,1,1,4
        3,3000,1000,CLEANUP,4,0,4,1,1,1,1,1,4
        4,4000,500,GEO_NEAR,1000,0,2000,1,1,1,1,1,0
        """);
    YcsbOutput.Outcome outcome = YcsbOutput.read(folder, "GEO_NEAR", 1);
    assertThat(outcome.queries()).isEqualTo(8_990);
    assertThat(outcome.errors()).isEqualTo(10);
    assertThat(outcome.throughput()).isCloseTo(7_990 / 2.5, within(1e-9));
  }
}
