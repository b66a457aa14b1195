package org.geoshard.harness.binding;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * Binding {@code noop}: answers every operation with OK at once. It measures the client itself, the
 * harness and the workload, which must never be the bottleneck of a cluster benchmark. Unlike YCSB's
 * {@code BasicDB} it neither sleeps, counts nor prints. Tests extend it to override one operation.
 */
public class NoopDB extends DB {
  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    return Status.OK;
  }

  @Override
  public Status scan(String table, String startKey, int count, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return Status.OK;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return Status.OK;
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return Status.OK;
  }

  @Override
  public Status delete(String table, String key) {
    return Status.OK;
  }
}
