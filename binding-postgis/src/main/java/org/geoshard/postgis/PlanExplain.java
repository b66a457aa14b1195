package org.geoshard.postgis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.geoshard.harness.api.ExplainsOperations.QueryExplain;

/**
 * Reads PostgreSQL's {@code EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)} of one query: the tables or
 * partitions it scanned (a relation scan that ran at least once), the rows those scans examined (what
 * they returned plus what their filters and index rechecks removed; PostgreSQL shows both per loop,
 * so they are multiplied by the loops), the rows the query returned, and its buffers.
 */
final class PlanExplain {
  private static final ObjectMapper JSON = new ObjectMapper();

  private PlanExplain() {
  }

  static QueryExplain parse(String explainJson) {
    JsonNode root;
    try {
      root = JSON.readTree(explainJson);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("Not an EXPLAIN (FORMAT JSON) answer: " + e.getMessage(), e);
    }
    JsonNode top = root.isArray() ? root.path(0) : root;
    JsonNode plan = top.path("Plan");
    if (plan.isMissingNode()) {
      throw new IllegalArgumentException("The EXPLAIN answer holds no Plan.");
    }
    Set<String> scanned = new LinkedHashSet<>();
    long[] examined = new long[1];
    long[] removedSubplans = new long[1];
    walk(plan, scanned, examined, removedSubplans);
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("sharedHitBlocks", plan.path("Shared Hit Blocks").asLong());
    details.put("sharedReadBlocks", plan.path("Shared Read Blocks").asLong());
    details.put("subplansRemoved", removedSubplans[0]);
    details.put("executionMs", top.path("Execution Time").asDouble());
    long returned = Math.round(plan.path("Actual Rows").asDouble() * Math.max(1, plan.path("Actual Loops").asLong()));
    return new QueryExplain(List.copyOf(scanned), examined[0], returned, details);
  }

  private static void walk(JsonNode node, Set<String> scanned, long[] examined, long[] removedSubplans) {
    removedSubplans[0] += node.path("Subplans Removed").asLong();
    long loops = node.path("Actual Loops").asLong();
    if (node.has("Relation Name") && loops > 0) {
      scanned.add(node.path("Relation Name").asText());
      double perLoop = node.path("Actual Rows").asDouble() + node.path("Rows Removed by Filter").asDouble()
          + node.path("Rows Removed by Index Recheck").asDouble();
      examined[0] += Math.round(perLoop * loops);
    }
    for (JsonNode child : node.path("Plans")) {
      walk(child, scanned, examined, removedSubplans);
    }
  }
}
