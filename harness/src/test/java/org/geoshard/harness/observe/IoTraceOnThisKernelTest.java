package org.geoshard.harness.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.output.RunRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * trace.io for real on this machine's kernel with each probe set forced (a kernel from 6.5 has both, so
 * the older kernels' set is tried here too): a shell's children write 1 MiB with fio (direct, 4 KiB
 * writes submitted 32 at a time, which the block layer merges, back and front, into requests that
 * started smaller) and read it back with dd (direct). Needs root, bpftrace and fio (bin/test installs both);
 * skipped, saying which, otherwise.
 */
class IoTraceOnThisKernelTest {
  private static final long MIB = 1 << 20;
  private Path dir;

  @BeforeEach
  void preconditions() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "tracing needs root (eBPF, tracefs)");
    assumeTrue(List.of(System.getenv("PATH").split(":")).stream().anyMatch(d -> Files.isExecutable(Path.of(d, "bpftrace"))),
        "bpftrace is not installed (Debian package bpftrace)");
    assumeTrue(List.of(System.getenv("PATH").split(":")).stream().anyMatch(d -> Files.isExecutable(Path.of(d, "fio"))),
        "fio is not installed (Debian package fio)");
    if (!Files.isDirectory(IoTraceSession.TRACEFS.resolve("events"))) {
      new ProcessBuilder("mount", "-t", "tracefs", "nodev", IoTraceSession.TRACEFS.toString()).inheritIO().start().waitFor();
    }
    // Under target/: on the build's disk (a tmpfs /tmp has no block requests).
    dir = Files.createTempDirectory(Files.createDirectories(Path.of("target", "io-trace-test")).toAbsolutePath(), "t");
  }

  @AfterEach
  void clean() throws Exception {
    if (dir != null) {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(BlockProbes.class)
  void theForcedProbesTraceTheShellsChildrenWithMergedSizesAndCountWhatNeverCompleted(BlockProbes probes)
      throws Exception {
    Path data = dir.resolve("data");
    // Laid out before the trace: fio's own layout would add buffered writes of the same file.
    try (var out = java.nio.channels.FileChannel.open(data, java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.WRITE)) {
      out.write(java.nio.ByteBuffer.allocate((int) MIB));
      out.force(true);
    }
    Process shell = new ProcessBuilder("bash", "-c", "read go; "
        + "fio --name=w --filename=" + data + " --size=1M --bs=4k --rw=write --direct=1 --ioengine=libaio"
        + " --iodepth=32 --iodepth_batch_submit=32 --thread --output=/dev/null && "
        + "dd if=" + data + " of=/dev/null bs=64k iflag=direct status=none").redirectErrorStream(true).start();
    RunRecord record = new RunRecord("load", "test", "none", "none", "io", new Properties());
    IoTraceSettings settings = new IoTraceSettings(Set.of(Stage.LOAD), List.of(), "bpftrace", false, Optional.of(probes));
    IoTraceSession session = new IoTraceSession(settings, dir, record,
        () -> new IoTraceSession.Targets(List.of(shell.pid()), "local"));
    try {
      session.started(Stage.LOAD);
      try (OutputStream go = shell.getOutputStream()) {
        go.write("go\n".getBytes(StandardCharsets.US_ASCII));
      }
      assertThat(shell.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(shell.exitValue()).as(new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
    } finally {
      shell.destroyForcibly();
      session.ended(Stage.LOAD);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> io = (Map<String, Object>) record.asMap().get("io");
    assertThat(io).as("run.json io").containsEntry("status", "traced");
    @SuppressWarnings("unchecked")
    Map<String, Object> trace = ((List<Map<String, Object>>) io.get("traces")).get(0);
    // Printed for the record (the measured counts on this kernel).
    org.slf4j.LoggerFactory.getLogger(IoTraceOnThisKernelTest.class).warn("{} on this kernel: {}", probes, trace);
    assertThat(trace.get("probes")).as("%s", trace).isEqualTo(probes.tracepoints());
    assertThat(trace.get("neverCompleted")).as("the tracer's counts (its END block ran): %s", trace).isNotNull();
    long never = ((Number) trace.get("neverCompleted")).longValue();
    // Only fio and dd write or read data; the shell's own rows are reads of metadata (looking fio up on
    // PATH reads directory blocks: seen in CI as one 4 KiB RM read by the shell's pid), and a child reads
    // ahead the program it is about to exec while still named bash.
    List<String> rows = Files.readAllLines(dir.resolve("io").resolve("local.csv"));
    long fioWrites = 0;
    long fioWriteRequests = 0;
    for (String row : rows.subList(1, rows.size())) {
      String[] f = row.split(",");
      assertThat(f[7]).as(row).isIn("dd", "fio", "bash");
      if (Long.parseLong(f[8]) == shell.pid()) {
        assertThat(f[7]).as("the shell's own request: %s", row).isEqualTo("bash");
        assertThat(f[5]).as("the shell's own request, a read: %s", row).startsWith("R");
      }
      if (f[7].equals("fio") && f[5].equals("W")) {
        fioWrites += Long.parseLong(f[4]);
        fioWriteRequests++;
      }
    }
    // fio's 4 KiB writes are merged into fewer requests: sizes taken where a request starts would be 4 KiB
    // each, exactly 4 KiB times the requests. Taken at issue they hold the merged bios.
    assertThat(fioWriteRequests).as("fio's requests, %s", trace).isBetween(1L, 255L);
    assertThat(fioWrites).as("bytes fio wrote: more than 4 KiB per request (merged), %s", trace)
        .isGreaterThan(4096 * fioWriteRequests).isLessThanOrEqualTo(MIB);
    assertThat(never).as("%s", trace).isNotNegative();
    // Not asserted: dd's reads (besides its MiB it reads its own program at exec: measured up to 1.4 MiB), and
    // that every byte is traced. Idle, both sets traced fio's and dd's MiB exactly with none
    // lost; with the machine loaded, 4 to 27 of fio's 4 KiB requests started and never completed (their
    // bytes missing, counted in neverCompleted) and once most of dd's reads at the stage's end were missing.
    // Logged above for the record; the cause is open (issue 39).
  }
}
