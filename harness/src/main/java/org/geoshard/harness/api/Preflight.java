package org.geoshard.harness.api;

import java.util.List;
import java.util.Objects;
import site.ycsb.DBException;

/**
 * Implemented by a binding that can read its target before anyone spends an hour on a run: which
 * servers answer, their versions, the topology, the collection or table and its indexes, against what
 * the scenario's properties expect. {@code bin/ycsb preflight} asks a binding instance of its own
 * (initialised with the scenario's properties) and prints one line per check. Every line says what the
 * server's catalog holds, never what a property asks for; whatever a run would refuse, a preflight
 * before it fails with the run's own sentence.
 */
public interface Preflight {
  /**
   * The checks, in the order to print them; never throws for a check that fails, only to say the target
   * could not be read at all.
   *
   * @param before the command that comes next: a load may start on empty data, most runs may not
   */
  List<Check> preflight(Before before) throws DBException;

  /** The command a preflight is for ({@code bin/ycsb preflight --for load|run}). */
  enum Before {
    LOAD, RUN
  }

  /** How a check came out: {@code FAIL} means the run should not go. */
  enum Verdict {
    OK, WARN, FAIL;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** One check: a short name, its outcome, and what was found (one line). */
  record Check(String name, Verdict status, String detail) {
    public Check {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(status, "status");
      detail = detail == null ? "" : detail;
    }

    public static Check ok(String name, String detail) {
      return new Check(name, Verdict.OK, detail);
    }

    public static Check warn(String name, String detail) {
      return new Check(name, Verdict.WARN, detail);
    }

    public static Check fail(String name, String detail) {
      return new Check(name, Verdict.FAIL, detail);
    }
  }
}
