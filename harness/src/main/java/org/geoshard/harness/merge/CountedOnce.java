package org.geoshard.harness.merge;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.geoshard.harness.output.RunRecord;

/**
 * A run counts once in a merge: the same run given twice (the same folder, a copy of it, or a folder
 * and a merged folder that holds it) would add its operations and threads to themselves. A run is
 * known by its {@code runUuid}; a folder written before runs had one by its identity, host and start
 * time. A merged folder stands for the runs merged into it ({@code sources}, nested merges too).
 */
final class CountedOnce {
  private CountedOnce() {
  }

  /** How a run is known, and how that is said in a sentence. */
  record RunKey(String key, String said) {
  }

  /** One sentence per run given more than once; empty when every run is given once. */
  static List<String> repeated(List<SourceRun> runs) {
    Map<String, List<String>> where = new LinkedHashMap<>();
    Map<String, String> said = new LinkedHashMap<>();
    for (SourceRun run : runs) {
      String name = run.folder().toString();
      JsonNode sources = run.record().get("sources");
      boolean merged = sources != null && sources.isArray() && !sources.isEmpty();
      for (RunKey key : keys(run.record())) {
        where.computeIfAbsent(key.key(), k -> new ArrayList<>()).add(merged ? "the merged folder " + name : name);
        said.putIfAbsent(key.key(), key.said());
      }
    }
    // Runs given more than once by the same folders make one sentence (a merged folder given twice holds several).
    Map<List<String>, List<String>> byFolders = new LinkedHashMap<>();
    where.forEach((key, folders) -> {
      if (folders.size() > 1) {
        byFolders.computeIfAbsent(folders, f -> new ArrayList<>()).add(said.get(key));
      }
    });
    List<String> problems = new ArrayList<>();
    byFolders.forEach((folders, repeatedRuns) -> {
      Set<String> distinct = new LinkedHashSet<>(folders);
      String given = distinct.size() == 1 ? folders.get(0) + " is given " + folders.size() + " times"
          : String.join(" and ", distinct) + " hold the same run";
      String more = repeatedRuns.size() > 1 ? ", and " + (repeatedRuns.size() - 1) + " more run"
          + (repeatedRuns.size() > 2 ? "s" : "") : "";
      problems.add("Cannot merge: " + given + " (" + repeatedRuns.get(0) + more + "); a run counts once, even with"
          + " --allow-different.");
    });
    return problems;
  }

  /** The runs a run.json stands for: its own, or those merged into it. */
  static List<RunKey> keys(JsonNode record) {
    JsonNode sources = record.get("sources");
    if (sources != null && sources.isArray() && !sources.isEmpty()) {
      List<RunKey> keys = new ArrayList<>();
      for (JsonNode source : sources) {
        keys.addAll(sourceKeys(source, record));
      }
      return keys;
    }
    return List.of(key(record.path(RunRecord.RUN_UUID).asText(""), identityOf(record),
        record.at("/host/name").asText(""), startOf(record)));
  }

  /** A merged folder's entry of one source (itself merged, with its own entries, or one run). */
  private static List<RunKey> sourceKeys(JsonNode source, JsonNode merged) {
    JsonNode nested = source.get("sources");
    if (nested != null && nested.isArray() && !nested.isEmpty()) {
      List<RunKey> keys = new ArrayList<>();
      for (JsonNode entry : nested) {
        keys.addAll(sourceKeys(entry, merged));
      }
      return keys;
    }
    // Entries written before they held a source's identity: the merged folder's, which was the first source's.
    String identity = source.hasNonNull("identityKey") ? source.get("identityKey").asText()
        : merged.has("identity") ? merged.at("/identity/key").asText()
        : source.path("command").asText() + "/" + merged.at("/binding/name").asText() + "/"
            + merged.path("workload").asText();
    return List.of(key(source.path(RunRecord.RUN_UUID).asText(""), identity, source.at("/host/name").asText(""),
        source.path("startTime").asText("")));
  }

  private static RunKey key(String uuid, String identity, String host, String start) {
    if (!uuid.isBlank()) {
      return new RunKey("uuid " + uuid, "runUuid " + uuid);
    }
    return new RunKey("identity " + identity + " host " + host + " start " + start,
        "no runUuid, written before runs had one: the same identity, host " + host + " and start time " + start);
  }

  /** The identity key, or for a folder written before identities its command, binding and workload. */
  static String identityOf(JsonNode record) {
    JsonNode key = record.at("/identity/key");
    if (!key.isMissingNode() && !key.asText().isEmpty()) {
      return key.asText();
    }
    return record.path("command").asText() + "/" + record.at("/binding/name").asText() + "/"
        + record.path("workload").asText();
  }

  private static String startOf(JsonNode record) {
    String start = record.path("startTime").asText("");
    return start.isEmpty() ? record.path("createdTime").asText("") : start;
  }
}
