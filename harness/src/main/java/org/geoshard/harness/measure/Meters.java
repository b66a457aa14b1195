package org.geoshard.harness.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** The meters of one run, one per operation name, created on first use by any thread. */
public final class Meters {
  private final ConcurrentHashMap<String, OperationMeter> byName = new ConcurrentHashMap<>();
  private final List<OperationMeter> inOrder = new CopyOnWriteArrayList<>();
  private final int stripes;

  /** @param stripes recorder stripes per operation; rounded up to a power of two */
  public Meters(int stripes) {
    this.stripes = Integer.highestOneBit(Math.max(1, stripes - 1)) << (stripes > 1 ? 1 : 0);
  }

  /** Two stripes per core, enough that threads rarely share a stripe's counters. */
  public static Meters forThisMachine() {
    return new Meters(2 * Runtime.getRuntime().availableProcessors());
  }

  public int stripes() {
    return stripes;
  }

  public OperationMeter meter(String operation) {
    OperationMeter meter = byName.get(operation);
    if (meter != null) {
      return meter;
    }
    return byName.computeIfAbsent(operation, name -> {
      OperationMeter created = new OperationMeter(name, stripes);
      inOrder.add(created);
      return created;
    });
  }

  /** The operations with NOT_FOUND failures and how many, in order of first use. */
  public java.util.Map<String, Long> notFound() {
    java.util.Map<String, Long> out = new java.util.LinkedHashMap<>();
    for (OperationMeter meter : inOrder) {
      if (meter.notFound() > 0) {
        out.put(meter.name(), meter.notFound());
      }
    }
    return out;
  }

  /** Samples every meter that recorded something since the last call. Sampler thread only. */
  List<IntervalSample> sampleAll() {
    List<IntervalSample> samples = new ArrayList<>();
    for (OperationMeter meter : inOrder) {
      IntervalSample sample = meter.sampleInterval();
      if (!sample.isEmpty()) {
        samples.add(sample);
      }
    }
    return samples;
  }
}
