package org.geoshard.mongodb;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.geoshard.harness.api.ExplainsOperations.QueryExplain;

/**
 * Reads the answer of {@code explain} with {@code verbosity: "executionStats"}: the shards that took
 * part (through a mongos, {@code executionStats.executionStages.shards[].shardName}, or the planner's
 * {@code queryPlanner.winningPlan.shards} when the stages hold none), the documents examined over all
 * of them ({@code totalDocsExamined}) and returned ({@code nReturned}). An unsharded deployment answers
 * without shards: its one server is the target.
 */
final class MongoExplain {
  private MongoExplain() {
  }

  /** The explain command for a find command. */
  static Document command(Document find) {
    return new Document("explain", find).append("verbosity", "executionStats");
  }

  static QueryExplain parse(Document explain) {
    Document stats = Nested.at(explain, "executionStats");
    if (stats == null) {
      throw new IllegalArgumentException("The explain answer holds no executionStats (verbosity executionStats).");
    }
    Document stages = Nested.at(stats, "executionStages");
    Document winning = Nested.at(explain, "queryPlanner", "winningPlan");
    List<Document> shards = documents(stages, "shards");
    if (shards.isEmpty()) {
      shards = documents(winning, "shards");
    }
    List<String> targets = new ArrayList<>();
    for (Document shard : shards) {
      Object name = shard.get("shardName");
      targets.add(name == null ? "shard" + targets.size() : name.toString());
    }
    if (targets.isEmpty()) {
      Document server = Nested.at(explain, "serverInfo");
      targets.add(server == null ? "server" : server.get("host") + ":" + server.get("port"));
    }
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("stage", stages != null ? String.valueOf(stages.get("stage"))
        : winning != null ? String.valueOf(winning.get("stage")) : "unknown");
    details.put("totalKeysExamined", number(stats, "totalKeysExamined"));
    details.put("executionTimeMillis", number(stats, "executionTimeMillis"));
    return new QueryExplain(targets, number(stats, "totalDocsExamined"), number(stats, "nReturned"), details);
  }

  private static List<Document> documents(Document d, String key) {
    List<Document> out = new ArrayList<>();
    if (d != null && d.get(key) instanceof List<?> list) {
      list.stream().filter(Document.class::isInstance).map(Document.class::cast).forEach(out::add);
    }
    return out;
  }

  private static long number(Document d, String key) {
    return d.get(key) instanceof Number n ? n.longValue() : 0;
  }
}
