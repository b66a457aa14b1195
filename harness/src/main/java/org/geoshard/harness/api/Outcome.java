package org.geoshard.harness.api;

/**
 * How one measured call is counted: under which operation name, and whether it is an error. Lets a
 * workload file a call by its result, e.g. a conditional upsert that found a newer record as
 * {@code LKL_STALE} rather than {@code LKL_UPSERT}, and not as an error.
 */
public record Outcome(String operation, boolean ok) {
}
