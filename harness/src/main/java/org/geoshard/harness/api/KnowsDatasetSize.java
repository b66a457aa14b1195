package org.geoshard.harness.api;

import java.util.Map;

/**
 * Implemented by a workload whose whole dataset follows from its own properties: how many records a
 * complete load writes per role (the sum of every client's slice, whatever {@code insertstart} and
 * {@code insertcount} give this client), so that a binding can compare what its server holds with the
 * scenario ({@code bin/ycsb preflight}). Asked after {@code init}; the harness hands the answer to
 * bindings in the {@link DataDeclaration} ({@link ExpectedData}), so that no binding reads a workload.
 */
public interface KnowsDatasetSize {
  /** Records per role after a complete load (roles this workload declares). */
  Map<DataRole, Long> datasetSize();

  /** Whether a run adds records (inserts or upserts new keys): after one, the counts are lower bounds. */
  boolean runAddsRecords();

  /**
   * Whether a run reads what a load wrote, so that it must not start on empty data (preflight and the
   * run refuse that in one sentence, {@link ExpectedData#emptyBeforeRun}). False for a run that only
   * writes, or reads only what its own writers add.
   */
  default boolean runReadsLoadedData() {
    return true;
  }
}
