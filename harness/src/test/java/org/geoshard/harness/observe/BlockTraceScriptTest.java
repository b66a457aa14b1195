package org.geoshard.harness.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class BlockTraceScriptTest {
  @Test
  void tracesTheRootProcessesWithTheirChildrenAndNamedProcesses() {
    String program = BlockTraceScript.program(List.of(4637L), List.of("mongod"));
    assertThat(program)
        .contains("tracepoint:block:block_io_start /pid == 4637 || curtask->real_parent->tgid == 4637 || comm == \"mongod\"/")
        .contains("tracepoint:block:block_io_done")
        .contains(BlockTraceScript.ANCHOR);
  }

  @Test
  void refusesNothingToTraceAndNamesThatCouldBreakTheProgram() {
    assertThatThrownBy(() -> BlockTraceScript.program(List.of(), List.of()))
        .hasMessageContaining("Nothing to trace");
    assertThatThrownBy(() -> BlockTraceScript.program(List.of(), List.of("a\" || 1")))
        .hasMessageContaining("process name");
  }
}
