package org.geoshard.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.geoshard.harness.api.Preflight;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import site.ycsb.DB;
import site.ycsb.DBException;

/** {@code bin/ycsb preflight}: one line per check, JSON on request, and the exit code the worst check decides. */
class PreflightCommandTest {
  /** A binding whose checks come from its properties: {@code checked.fail=true} adds a failing one. */
  public static final class Checked extends DB implements Preflight, org.geoshard.harness.api.JoinsRun {
    private org.geoshard.harness.api.RunContext context;

    @Override
    public void joinRun(org.geoshard.harness.api.RunContext context) {
      this.context = context;
    }

    @Override
    public void init() throws DBException {
      if ("true".equals(getProperties().getProperty("checked.unreachable"))) {
        throw new DBException("No server answered at 127.0.0.1:1 within 2 s (checked.unreachable).");
      }
    }

    @Override
    public List<Check> preflight(Before before) {
      if ("true".equals(getProperties().getProperty("checked.count"))) {
        // As a binding: the count it read, against the dataset the harness declares.
        long found = Long.parseLong(getProperties().getProperty("checked.rows"));
        return List.of(context.data().expected().countCheck("rows", "t", org.geoshard.harness.api.DataRole.KEY_VALUE,
            "rows", found, before));
      }
      boolean fail = "true".equals(getProperties().getProperty("checked.fail"));
      return fail ? List.of(Check.ok("server", "1.0"), Check.fail("table", "t holds 3 rows, the scenario 5"))
          : List.of(Check.ok("server", "1.0"), Check.warn("clock skew", "+1500 ms"));
    }

    @Override
    public site.ycsb.Status read(String t, String k, java.util.Set<String> f, java.util.Map<String, site.ycsb.ByteIterator> r) {
      return site.ycsb.Status.NOT_IMPLEMENTED;
    }

    @Override
    public site.ycsb.Status scan(String t, String k, int n, java.util.Set<String> f,
        java.util.Vector<java.util.HashMap<String, site.ycsb.ByteIterator>> r) {
      return site.ycsb.Status.NOT_IMPLEMENTED;
    }

    @Override
    public site.ycsb.Status update(String t, String k, java.util.Map<String, site.ycsb.ByteIterator> v) {
      return site.ycsb.Status.NOT_IMPLEMENTED;
    }

    @Override
    public site.ycsb.Status insert(String t, String k, java.util.Map<String, site.ycsb.ByteIterator> v) {
      return site.ycsb.Status.NOT_IMPLEMENTED;
    }

    @Override
    public site.ycsb.Status delete(String t, String k) {
      return site.ycsb.Status.NOT_IMPLEMENTED;
    }
  }

  private String out;

  private int preflight(String... args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code = new CommandLine(new PreflightCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8))).execute(args);
    out = bytes.toString(StandardCharsets.UTF_8);
    return code;
  }

  @Test
  void warningsLetTheRunGoAndAFailedCheckDoesNot() {
    assertThat(preflight(Checked.class.getName())).as(out).isEqualTo(ExitCodes.OK);
    assertThat(out).isEqualTo(String.format("ok    server      1.0%nwarn  clock skew  +1500 ms%n"));
    assertThat(preflight(Checked.class.getName(), "-p", "checked.fail=true")).isEqualTo(ExitCodes.FAILED);
    assertThat(out).contains(String.format("fail  table   t holds 3 rows, the scenario 5%n"));
  }

  @Test
  void jsonGivesNameStatusAndDetail() {
    assertThat(preflight(Checked.class.getName(), "--json", "-p", "checked.fail=true")).isEqualTo(ExitCodes.FAILED);
    assertThat(out.replaceAll("\\s", "")).isEqualTo("[{\"name\":\"server\",\"status\":\"ok\",\"detail\":\"1.0\"},"
        + "{\"name\":\"table\",\"status\":\"fail\",\"detail\":\"tholds3rows,thescenario5\"}]");
  }

  @Test
  void anUnreachableTargetIsOneFailedCheckAndABindingWithoutChecksIsAUsageError() {
    assertThat(preflight(Checked.class.getName(), "-p", "checked.unreachable=true")).isEqualTo(ExitCodes.FAILED);
    assertThat(out).isEqualTo(String.format("fail  first contact  No server answered at 127.0.0.1:1 within 2 s "
        + "(checked.unreachable).%n"));
    assertThat(preflight("noop")).isEqualTo(ExitCodes.USAGE);
    assertThat(out).isEmpty();
  }

  @Test
  void theNextCommandAndTheDatasetsSizeReachTheBinding() {
    String[] yc = {Checked.class.getName(), "-p", "workload=site.ycsb.workloads.CoreWorkload", "-p", "recordcount=1000",
        "-p", "checked.count=true"};
    assertThat(preflight(concat(yc, "-p", "checked.rows=999"))).as(out).isEqualTo(ExitCodes.FAILED);
    assertThat(out).isEqualTo(String.format("fail  rows  t holds 999 rows, but the scenario's dataset has exactly 1,000: "
        + "the data was loaded with other properties (e.g. geo.scale, recordcount) or not completely%n"));
    assertThat(preflight(concat(yc, "-p", "checked.rows=1000"))).as(out).isEqualTo(ExitCodes.OK);
    // Empty: fine before a load, refused before a run that reads (the default), fine before one that only inserts.
    assertThat(preflight(concat(yc, "-p", "checked.rows=0", "--for", "load"))).as(out).isEqualTo(ExitCodes.OK);
    assertThat(out).contains("t is empty or absent: a load fills it (1,000 rows)");
    assertThat(preflight(concat(yc, "-p", "checked.rows=0"))).as(out).isEqualTo(ExitCodes.FAILED);
    assertThat(out).contains("t holds no records, and this run reads loaded data");
    assertThat(preflight(concat(yc, "-p", "checked.rows=0", "-p", "insertproportion=1", "-p", "readproportion=0",
        "-p", "updateproportion=0", "--for", "RUN"))).as(out).isEqualTo(ExitCodes.OK);
    // YCSB D/E insert: the count is a lower bound, said so.
    assertThat(preflight(concat(yc, "-p", "checked.rows=1040", "-p", "insertproportion=0.05"))).as(out).isEqualTo(ExitCodes.OK);
    assertThat(out).contains("t holds 1,040 rows (at least 1,000 expected: the scenario's runs add to the loaded data,"
        + " so this is a lower bound)");
    assertThat(preflight(concat(yc, "--for", "walk"))).isEqualTo(ExitCodes.USAGE);
  }

  private static String[] concat(String[] head, String... tail) {
    String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, all, head.length, tail.length);
    return all;
  }
}
