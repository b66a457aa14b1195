package org.geoshard.harness.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockProbesTest {
  @TempDir
  Path events;

  private void kernelHas(String... tracepoints) throws IOException {
    for (String t : tracepoints) {
      Files.createDirectories(events.resolve(t));
    }
  }

  @Test
  void linux65AndLaterUseTheAccountingTracepoints() throws IOException {
    kernelHas("block_getrq", "block_bio_frontmerge", "block_rq_issue", "block_rq_complete", "block_io_start",
        "block_io_done");
    assertThat(BlockProbes.of(events)).isEqualTo(BlockProbes.BLOCK_IO);
  }

  @Test
  void olderKernelsUseTheRequestTracepoints() throws IOException {
    // Linux 6.1 (Debian 12), 5.4 and 5.15 (Ubuntu 20.04), 4.9: no block_io_start.
    kernelHas("block_getrq", "block_bio_frontmerge", "block_rq_issue", "block_rq_complete", "block_rq_insert");
    assertThat(BlockProbes.of(events)).isEqualTo(BlockProbes.BLOCK_RQ);
    assertThat(BlockProbes.BLOCK_RQ.tracepoints()).containsExactly("block_getrq", "block_bio_frontmerge", "block_rq_issue",
        "block_rq_complete");
  }

  @Test
  void noBlockTracepointsIsSaidNamingWhereItLooked() {
    assertThatThrownBy(() -> BlockProbes.of(events.resolve("block")))
        .isInstanceOf(IOException.class).hasMessageContaining(events.resolve("block").toString());
  }

  @Test
  void theValuesOfTheProperty() {
    assertThat(BlockProbes.ofValue("block_rq")).isEqualTo(BlockProbes.BLOCK_RQ);
    assertThat(BlockProbes.ofValue("block_io")).isEqualTo(BlockProbes.BLOCK_IO);
    assertThat(BlockProbes.ofValue("rq")).isNull();
  }
}
