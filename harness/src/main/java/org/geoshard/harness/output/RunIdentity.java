package org.geoshard.harness.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import org.geoshard.harness.api.Secrets;

/**
 * What a run is, written once into {@code run.json} as {@code identity} when the phase starts: the
 * command (phase), the binding's name, the workload class and the scenario (the effective
 * properties that define it), with a key over the four. Merge and report compare identities, never
 * labels: runs of one identity are clients or repetitions of one scenario.
 *
 * <p>The scenario leaves out what may differ between the clients of one scenario or between
 * repetitions ({@code results.*}, {@code status.*}, {@code observe.*}, {@code trace.*}, {@code seed},
 * {@code insertstart}, {@code insertcount}, {@code clientthreads}) and where a server is and who logs
 * in (names ending in {@code .url}, {@code .host}, {@code .hosts}, {@code .password}, {@code .user}).
 * The key is the hex SHA-256 of the canonical JSON of the four: keys sorted, no whitespace, UTF-8 (as
 * Python's {@code json.dumps(o, sort_keys=True, separators=(",", ":"), ensure_ascii=False)}).
 */
public record RunIdentity(String command, String binding, String workload, SortedMap<String, String> scenario,
                          String key) {
  private static final List<String> VARYING_PREFIXES = List.of("results.", "status.", "observe.", "trace.");
  private static final List<String> VARYING_NAMES = List.of("seed", "insertstart", "insertcount", "clientthreads");
  private static final List<String> VARYING_SUFFIXES = List.of(".url", ".host", ".hosts", ".password", ".user");
  private static final ObjectMapper CANONICAL = new ObjectMapper()
      .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  public RunIdentity {
    scenario = new TreeMap<>(scenario);
  }

  /** The identity of a phase about to start with these effective properties (secrets masked). */
  public static RunIdentity of(String command, String binding, String workload, Properties effective) {
    TreeMap<String, String> scenario = new TreeMap<>();
    Secrets.masked(effective).forEach((name, value) -> {
      if (definesScenario(name)) {
        scenario.put(name, value);
      }
    });
    return new RunIdentity(command, binding, workload, scenario, keyOf(command, binding, workload, scenario));
  }

  /** The identity in a {@code run.json}, or null when it has none (written before identities were). */
  public static RunIdentity fromJson(JsonNode runJson) {
    JsonNode identity = runJson.get("identity");
    if (identity == null || !identity.isObject()) {
      return null;
    }
    TreeMap<String, String> scenario = new TreeMap<>();
    identity.path("scenario").fields().forEachRemaining(e -> scenario.put(e.getKey(), e.getValue().asText()));
    return new RunIdentity(identity.path("command").asText(), identity.path("binding").asText(),
        identity.path("workload").asText(), scenario, identity.path("key").asText());
  }

  /** True for a property that defines the scenario (not one that may differ between its clients or repetitions). */
  public static boolean definesScenario(String name) {
    return VARYING_PREFIXES.stream().noneMatch(name::startsWith) && !VARYING_NAMES.contains(name)
        && VARYING_SUFFIXES.stream().noneMatch(name::endsWith);
  }

  /** As written in {@code run.json}. */
  public Map<String, Object> asMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("command", command);
    map.put("binding", binding);
    map.put("workload", workload);
    map.put("scenario", scenario);
    map.put("key", key);
    return map;
  }

  static String keyOf(String command, String binding, String workload, SortedMap<String, String> scenario) {
    Map<String, Object> canonical = new TreeMap<>();
    canonical.put("command", command);
    canonical.put("binding", binding);
    canonical.put("workload", workload);
    canonical.put("scenario", new TreeMap<>(scenario));
    try {
      byte[] json = CANONICAL.writeValueAsString(canonical).getBytes(StandardCharsets.UTF_8);
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
    } catch (JsonProcessingException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("Cannot compute a run identity's key", e);  // strings only; SHA-256 is always there
    }
  }
}
