package org.geoshard.harness.ramp;

/** How load rises step by step in a max-throughput search. */
public enum RampMode {
  /** No ramp: a fixed number of threads, as YCSB runs. */
  NONE,
  /** Closed loop, the study's method: add client threads every step. */
  THREADS,
  /** Open loop: raise the offered rate every step; latency counts from the intended start. */
  RATE
}
