package org.geoshard.mongodb;

import com.mongodb.ServerAddress;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandSucceededEvent;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The driver's view of the commands a client sent, per command name and server: how many, how many
 * failed, and their mean time as the driver measured it. On a cluster with several routers in the URL
 * it shows how the driver spread the load; it is recorded with the topology in {@code run.json}.
 * Lock-free and allocation-free on the hot path: two map look-ups (server, then command name) and two
 * adders per command. The key {@code "find @ host:port"} is made only for the snapshot: built per
 * command it cost two string concatenations on every request of every client thread.
 */
public final class CommandCounters implements CommandListener {
  private static final class Counter {
    final LongAdder count = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder nanos = new LongAdder();
  }

  /** Counters by server and command name. */
  private final Map<ServerAddress, Map<String, Counter>> counters = new ConcurrentHashMap<>();

  @Override
  public void commandSucceeded(CommandSucceededEvent event) {
    record(event.getCommandName(), event.getConnectionDescription().getServerAddress(),
        event.getElapsedTime(TimeUnit.NANOSECONDS), false);
  }

  @Override
  public void commandFailed(CommandFailedEvent event) {
    record(event.getCommandName(), event.getConnectionDescription().getServerAddress(),
        event.getElapsedTime(TimeUnit.NANOSECONDS), true);
  }

  void record(String command, ServerAddress server, long nanos, boolean failed) {
    Map<String, Counter> ofServer = counters.get(server);
    if (ofServer == null) {
      ofServer = counters.computeIfAbsent(server, k -> new ConcurrentHashMap<>());
    }
    Counter c = ofServer.get(command);
    if (c == null) {
      c = ofServer.computeIfAbsent(command, k -> new Counter());
    }
    c.count.increment();
    c.nanos.add(nanos);
    if (failed) {
      c.failed.increment();
    }
  }

  /** {"find @ host:port": {count, failed, meanMicros}}, sorted by key. */
  public Map<String, Object> snapshot() {
    Map<String, Object> out = new TreeMap<>();
    counters.forEach((server, commands) -> commands.forEach((command, c) -> {
      long n = c.count.sum();
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("count", n);
      entry.put("failed", c.failed.sum());
      entry.put("meanMicros", n == 0 ? 0 : c.nanos.sum() / n / 1000);
      out.put(command + " @ " + server, entry);
    }));
    return out;
  }
}
