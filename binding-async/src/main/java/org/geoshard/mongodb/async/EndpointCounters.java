package org.geoshard.mongodb.async;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.geoshard.mongodb.CommandCounters;
import org.geoshard.mongodb.Op;

/**
 * What one endpoint (the default router or a shard's router) was sent, kept for the phase ({@link Routers})
 * so that the topology recorded after a run (by a fresh binding instance) still sees the run's requests: requests
 * per kind, failed requests, documents written, and the driver's view of the commands on the wire.
 * Lock-free on the hot path.
 */
final class EndpointCounters {
  private final LongAdder[] requests = new LongAdder[Op.ALL.length];
  private final LongAdder failed = new LongAdder();
  private final LongAdder documents = new LongAdder();
  final CommandCounters commands = new CommandCounters();
  volatile String maskedUrl;

  EndpointCounters() {
    for (int i = 0; i < requests.length; i++) {
      requests[i] = new LongAdder();
    }
  }

  void sent(Op op) {
    requests[op.ordinal()].increment();
  }

  void wrote(int n) {
    documents.add(n);
  }

  void failed() {
    failed.increment();
  }

  long requests() {
    long n = 0;
    for (LongAdder a : requests) {
      n += a.sum();
    }
    return n;
  }

  long requests(Op op) {
    return requests[op.ordinal()].sum();
  }

  long failures() {
    return failed.sum();
  }

  Map<String, Object> describe() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("url", maskedUrl);
    out.put("ops", requests());
    out.put("failed", failed.sum());
    out.put("documentsWritten", documents.sum());
    Map<String, Long> byOp = new LinkedHashMap<>();
    for (Op op : Op.ALL) {
      long n = requests[op.ordinal()].sum();
      if (n > 0) {
        byOp.put(op.name(), n);
      }
    }
    out.put("byOperation", byOp);
    out.put("driverCommands", commands.snapshot());
    return out;
  }
}
