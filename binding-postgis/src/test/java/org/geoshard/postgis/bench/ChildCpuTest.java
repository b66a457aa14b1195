package org.geoshard.postgis.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ChildCpuTest {
  @Test
  void childrenCpuIsTheSumOfCutimeAndCstimeInHundredthsOfASecond() {
    // Fields 14-17 are utime stime cutime cstime; the name holds a space and a parenthesis.
    String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194304 100 0 0 0 500 60 1234 66 20 0 30 0 1 2 3";
    assertThat(ChildCpu.parse(stat)).isEqualTo(Duration.ofMillis(13_000));
  }

  @Test
  void aChildThatBurnsCpuIsCountedOnceItEnded() throws Exception {
    Duration before = ChildCpu.used();
    Process busy = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done").start();
    assertThat(busy.waitFor()).isZero();
    assertThat(ChildCpu.used().minus(before)).isGreaterThan(Duration.ZERO);
  }
}
