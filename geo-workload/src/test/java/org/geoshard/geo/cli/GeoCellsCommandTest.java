package org.geoshard.geo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.geoshard.harness.cli.ExitCodes;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class GeoCellsCommandTest {
  private int run(ByteArrayOutputStream out, String... args) {
    return new CommandLine(new GeoCellsCommand(new PrintStream(out, true, StandardCharsets.UTF_8))).execute(args);
  }

  /** The bundled cities at 1%: the same shape as full scale (the README gives full-scale figures). */
  @Test
  void threeShardsOfCellsReachFewShardsPerQueryAndHoldBalancedRestaurants() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = run(out, "--stats", "-p", "geo.scale=0.01", "-p", "geo.cells.queries=20000");
    assertThat(code).isEqualTo(ExitCodes.OK);
    JsonNode stats = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
    assertThat(stats.get("shards").asInt()).isEqualTo(3);
    assertThat(stats.get("queries").asInt()).isEqualTo(20_000);
    assertThat(stats.at("/hashed/meanShardsPerQuery").asDouble()).isEqualTo(3.0);
    assertThat(stats.at("/hashed/p95ShardsPerQuery").asInt()).isEqualTo(3);
    JsonNode cells = stats.get("cells");
    assertThat(cells.get("meanShardsPerQuery").asDouble()).isBetween(1.0, 1.5);
    assertThat(cells.get("maxOverMinRestaurants").asDouble()).isBetween(1.0, 1.05);
    long restaurants = 0;
    for (JsonNode n : cells.get("restaurantsPerShard")) {
      restaurants += n.asLong();
    }
    assertThat(restaurants).isEqualTo(stats.get("restaurants").asLong());
    long reached = 0;
    for (JsonNode n : cells.get("queriesPerShard")) {
      reached += n.asLong();
    }
    // Every query reaches at least one shard; the mean says how many on average.
    assertThat(reached).isEqualTo(Math.round(cells.get("meanShardsPerQuery").asDouble() * 20_000));
    assertThat(cells.get("lowerBounds")).hasSize(2);
  }

  @Test
  void theSameSeedGivesTheSameFigures() throws Exception {
    ByteArrayOutputStream a = new ByteArrayOutputStream();
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    run(a, "--stats", "-p", "geo.scale=0.002", "-p", "geo.cells.queries=2000", "-p", "geo.cells.shards=2");
    run(b, "--stats", "-p", "geo.scale=0.002", "-p", "geo.cells.queries=2000", "-p", "geo.cells.shards=2");
    ObjectMapper json = new ObjectMapper();
    JsonNode first = json.readTree(a.toString(StandardCharsets.UTF_8));
    JsonNode second = json.readTree(b.toString(StandardCharsets.UTF_8));
    assertThat(first.get("cells")).isEqualTo(second.get("cells"));
  }

  @Test
  void aBadCellPropertyIsAUsageError() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(run(out, "--stats", "-p", "geo.cells.level=40")).isEqualTo(ExitCodes.USAGE);
    assertThat(run(out, "--stats", "-p", "geo.cells.levle=7")).isEqualTo(ExitCodes.USAGE);
    assertThat(out.size()).isZero();
  }
}
