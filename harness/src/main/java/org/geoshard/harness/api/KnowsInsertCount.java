package org.geoshard.harness.api;

/**
 * Implemented by a workload whose dataset size follows from its own properties (e.g. restaurants
 * generated around a cities file): how many records a load inserts when the user sets neither
 * {@code recordcount} nor {@code insertcount}. Asked after {@code init}.
 */
public interface KnowsInsertCount {
  long insertCount();
}
