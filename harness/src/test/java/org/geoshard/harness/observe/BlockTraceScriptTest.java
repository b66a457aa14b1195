package org.geoshard.harness.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class BlockTraceScriptTest {
  @Test
  void tracesTheRootProcessesWithTheirChildrenAndNamedProcesses() {
    String program = BlockTraceScript.program(List.of(4637L), List.of("mongod"), BlockProbes.BLOCK_IO);
    assertThat(program)
        .contains("tracepoint:block:block_io_start /pid == 4637 || curtask->real_parent->tgid == 4637 || comm == \"mongod\"/")
        .contains("tracepoint:block:block_io_done /@start[args->dev, args->sector]/")
        .contains(BlockTraceScript.ANCHOR)
        .doesNotContain("block_getrq", "block_rq_complete");
  }

  @Test
  void olderKernelsStartWhereTheRequestIsAllocatedAndEndAtItsCompletion() {
    String program = BlockTraceScript.program(List.of(), List.of("mongod"), BlockProbes.BLOCK_RQ);
    // The submitter is current at block_getrq; issue and completion may run in a kernel worker, so the
    // process is chosen only at the start and the later probes follow the requests remembered there.
    assertThat(program)
        .contains("tracepoint:block:block_getrq /comm == \"mongod\"/")
        .contains("tracepoint:block:block_rq_issue /@start[args->dev, args->sector]/")
        .contains("tracepoint:block:block_rq_complete /@start[args->dev, args->sector]/")
        .doesNotContain("block_io_start", "block_io_done");
  }

  @Test
  void takesTheSizeWhereTheRequestIsIssuedAndCountsTheOnesNeverCompleted() {
    for (BlockProbes probes : BlockProbes.values()) {
      String program = BlockTraceScript.program(List.of(), List.of("dd"), probes);
      String issue = program.substring(program.indexOf("tracepoint:block:block_rq_issue"));
      assertThat(issue.substring(0, issue.indexOf('}'))).as(probes.name())
          .contains("@bytes[args->dev, args->sector] = args->nr_sector * 512");
      assertThat(program).as(probes.name())
          .contains("@started++", "@completed++", "printf(\"" + BlockTraceScript.COUNTS + "%d started, %d completed\\n\"");
    }
  }

  @Test
  void aFrontMergedRequestIsFollowedToItsNewFirstSector() {
    String program = BlockTraceScript.program(List.of(), List.of("dd"), BlockProbes.BLOCK_RQ);
    assertThat(program)
        .contains("tracepoint:block:block_bio_frontmerge /@start[args->dev, args->sector + args->nr_sector]/")
        .contains("@start[$d, $n] = @start[$d, $o];", "@bytes[$d, $n] = @bytes[$d, $o] + args->nr_sector * 512;",
            "delete(@start[$d, $o]);");
  }

  @Test
  void aProgramSaysWhichTracepointsItAttachesInTheOrderARequestMeetsThem() {
    // What run.json records as the trace's probes: read from the program bpftrace is given.
    for (BlockProbes probes : BlockProbes.values()) {
      assertThat(BlockTraceScript.tracepoints(BlockTraceScript.program(List.of(1L), List.of("dd"), probes)))
          .as(probes.name()).containsExactlyElementsOf(probes.tracepoints());
    }
    assertThat(BlockTraceScript.tracepoints("BEGIN { }\n  tracepoint:block:indented {}\ntracepoint:sched:x {}\n"))
        .isEmpty();
  }

  @Test
  void refusesNothingToTraceAndNamesThatCouldBreakTheProgram() {
    assertThatThrownBy(() -> BlockTraceScript.program(List.of(), List.of(), BlockProbes.BLOCK_IO))
        .hasMessageContaining("Nothing to trace");
    assertThatThrownBy(() -> BlockTraceScript.program(List.of(), List.of("a\" || 1"), BlockProbes.BLOCK_RQ))
        .hasMessageContaining("process name");
  }
}
