package org.geoshard.harness.run;

/**
 * Where a latency starts, with YCSB's names: at the call ({@code op}) or at the time the schedule
 * intended the call ({@code intended}), which corrects coordinated omission when a target rate is set.
 */
public enum MeasurementInterval {
  OP,
  INTENDED
}
