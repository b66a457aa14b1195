package org.geoshard.harness.observe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BlockRequestTest {
  @Test
  void parsesWhatTheTracerPrints() {
    BlockRequest r = BlockRequest.parse("11744594383940,254,0,200649040,24576,RA,32059,postgres,106509");
    assertThat(r).isEqualTo(new BlockRequest(11744594383940L, "254:0", 200649040L, 24576, "RA", 32059, "postgres",
        106509));
    assertThat(r.op()).isEqualTo("R");
    assertThat(r.endSector()).isEqualTo(200649040L + 48);
  }

  @Test
  void flushesWithoutDataAreNeitherReadsNorWrites() {
    assertThat(BlockRequest.parse("1,254,0,0,0,FWS,1,postgres,5").op()).isEqualTo("other");
    assertThat(BlockRequest.parse("1,254,0,8,4096,WS,1,postgres,5").op()).isEqualTo("W");
  }

  @Test
  void ignoresBpftracesOwnLines() {
    assertThat(BlockRequest.parse("Attaching 3 probes...")).isNull();
    assertThat(BlockRequest.parse("a,b,c,d,e,f,g,h,i")).isNull();
  }

  @Test
  void writesEpochMillisecondsFromTheClockPairAndMicrosecondLatency() {
    BlockRequest r = new BlockRequest(5_000_000_000L, "8:0", 16, 4096, "W", 7, "post,gres", 2_500_000);
    // anchor: 1,000 ms epoch at 4 s monotonic; the request started 1 s later.
    assertThat(r.csv(1_000, 4_000_000_000L, "after-load"))
        .isEqualTo("2000.000,after-load,8:0,16,4096,W,W,post_gres,7,2500.0");
    assertThat(BlockRequest.CSV_HEADER.split(",")).hasSize(r.csv(0, 0, "run").split(",").length);
  }
}
