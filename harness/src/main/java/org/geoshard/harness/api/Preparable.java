package org.geoshard.harness.api;

import java.util.Map;
import site.ycsb.DBException;

/**
 * Implemented by a binding that prepares its database for a workload: creating collections or
 * tables, sharding, indexes. The harness calls it on a binding instance of its own (after
 * {@code init}, before {@code cleanup}) before a load starts and after it ends, and by
 * {@code bin/ycsb prepare}; each step is timed into {@code run.json}. Preparation must be idempotent:
 * running it twice leaves the database as running it once.
 */
public interface Preparable {
  /** When preparation runs. */
  enum Stage {
    /** Before the first record is inserted: drop if asked, create, shard. */
    BEFORE_LOAD,
    /** After the last record is inserted: e.g. build indexes on the loaded data. */
    AFTER_LOAD
  }

  void prepare(Stage stage, Steps steps) throws DBException;

  /** Records timed preparation steps. */
  interface Steps {
    /**
     * Runs one step, timing it; the details it returns (e.g. the index build time on each shard) are
     * recorded with it. A step that throws is recorded as failed, and the exception is passed on.
     */
    void step(String name, Work work) throws DBException;
  }

  /** The work of one step. */
  @FunctionalInterface
  interface Work {
    Map<String, Object> run() throws Exception;
  }
}
