package org.geoshard.harness.api;

import java.time.Duration;
import java.util.List;

/**
 * Implemented by a workload that needs a second class of load beside its main client threads, such
 * as writers at a fixed offered rate while readers run closed loop. The harness starts each group's
 * threads after the {@code threadcount} main threads (their ids follow the main ones), paces them at
 * the group's rate on a fixed schedule, and measures their latency from the intended start. Asked
 * after {@code init}.
 */
public interface ThreadGroups {
  List<ThreadGroup> threadGroups();

  /**
   * One group of paced threads.
   *
   * @param rates the offered rate of the whole group in operations per second; 0 pauses the group.
   *     Several rates make a sweep: each holds for {@code stepInterval}, then the next; the run ends
   *     after the last. At most one group of a run may sweep.
   * @param stepInterval how long each rate of a sweep holds (ignored for a single rate)
   */
  record ThreadGroup(String name, int threads, List<Double> rates, Duration stepInterval) {
    public ThreadGroup {
      if (threads < 1) {
        throw new IllegalArgumentException("a thread group needs at least one thread: " + threads);
      }
      rates = List.copyOf(rates);
      if (rates.isEmpty() || rates.stream().anyMatch(r -> !(r >= 0))) {
        throw new IllegalArgumentException("a thread group needs rates of 0 or more: " + rates);
      }
    }

    public boolean sweeps() {
      return rates.size() > 1;
    }
  }
}
