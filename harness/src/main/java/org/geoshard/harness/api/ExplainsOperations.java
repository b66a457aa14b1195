package org.geoshard.harness.api;

import java.util.Optional;
import site.ycsb.DBException;

/**
 * Implemented by a binding that can explain its requests: which servers (shards, partitions) took
 * part and how much data they examined for what they returned. A few times per operation and ramp step
 * ({@code observe.explain.samples}), right after a measured operation succeeded and on the same client
 * thread, the harness asks for an explain of the request that operation just sent; the explain itself
 * is not measured. The answer is recorded per operation in {@code run.json} as {@code queryTargeting}.
 */
public interface ExplainsOperations {
  /**
   * Explains the last request this instance sent, executing it again where the database needs that
   * to count (MongoDB's {@code executionStats}, PostgreSQL's {@code EXPLAIN ANALYZE}).
   *
   * @return empty when this instance sent no request it can explain (e.g. a batched write)
   */
  Optional<QueryExplain> explainLast() throws DBException;

  /**
   * One explained request.
   *
   * @param targets the servers or partitions that took part (e.g. shard names), one entry each
   * @param examined documents or rows examined by all of them together (index keys not counted)
   * @param returned documents or rows returned to the client
   * @param details the database's own figures worth keeping (e.g. buffers), small and JSON-friendly
   */
  record QueryExplain(java.util.List<String> targets, long examined, long returned,
      java.util.Map<String, Object> details) {
    public QueryExplain {
      targets = java.util.List.copyOf(targets);
      details = details == null ? java.util.Map.of() : java.util.Map.copyOf(details);
    }
  }
}
