package org.geoshard.harness.api;

/**
 * Implemented by a workload whose dataset size follows from its own properties (e.g. restaurants
 * generated from a cities file), so that a load needs no {@code recordcount}. Asked after
 * {@code init}.
 */
public interface KnowsRecordCount {
  long recordCount();
}
