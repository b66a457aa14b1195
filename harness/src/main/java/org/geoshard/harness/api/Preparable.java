package org.geoshard.harness.api;

import java.util.Map;
import java.util.Set;
import site.ycsb.DBException;

/**
 * Implemented by a binding that prepares its database for a workload: creating collections or
 * tables, sharding, indexes. The harness calls it on a binding instance of its own (after
 * {@code init}, before {@code cleanup}) before a load starts and after it ends, and by
 * {@code bin/ycsb prepare}; each step is timed into {@code run.json}. Preparation must be idempotent:
 * running it twice leaves the database as running it once.
 *
 * <p>Preparation follows the workload's declaration ({@link DeclaresData}): a binding creates, drops
 * and counts only the collections or tables of the roles it is given, never another workload's, and
 * never asks which workload class runs.
 */
public interface Preparable {
  /** When preparation runs. */
  enum Stage {
    /** Before the first record is inserted: drop if asked, create, shard. */
    BEFORE_LOAD,
    /** After the last record is inserted: e.g. build indexes on the loaded data. */
    AFTER_LOAD
  }

  /**
   * Prepares the data of the given roles for one stage.
   *
   * @param data the roles the loaded workload declares (never empty); roles the binding does not serve
   *     are left alone
   */
  void prepare(Stage stage, Set<DataRole> data, Steps steps) throws DBException;

  /**
   * Checks, once before a run's client threads start, that the data the run reads is there (for
   * example an index every query needs), so that a missing piece is one sentence before the start
   * rather than an error per operation. Changes nothing. By default checks nothing.
   *
   * @param data the roles the running workload declares
   */
  default void checkBeforeRun(Set<DataRole> data) throws DBException {
  }

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
