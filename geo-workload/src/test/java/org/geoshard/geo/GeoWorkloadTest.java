package org.geoshard.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import org.geoshard.geo.cities.City;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.Placement;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The workload driven by the real harness, against a recording test binding. */
class GeoWorkloadTest {
  @TempDir
  Path dir;

  private Path cities() throws IOException {
    StringBuilder tsv = new StringBuilder("geonameid\tname\tcountry\tlatitude\tlongitude\tpopulation\n");
    for (City c : TestCities.FIVE) {
      tsv.append(c.geonameId()).append('\t').append(c.name()).append('\t').append(c.country()).append('\t')
          .append(c.latitude()).append('\t').append(c.longitude()).append('\t').append(c.population()).append('\n');
    }
    return Files.writeString(dir.resolve("cities.tsv"), tsv.toString());
  }

  private Properties props(String sink, String... pairs) throws IOException {
    Properties p = new Properties();
    p.setProperty("workload", GeoWorkload.class.getName());
    p.setProperty("geo.cities", cities().toString());
    p.setProperty("geo.scale", "0.01");
    p.setProperty("seed", "7");
    p.setProperty("status.interval", "0");
    p.setProperty("test.sink", sink);
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private RunResult run(Phase phase, Properties p, Class<? extends site.ycsb.DB> db, String folder) throws Exception {
    p.setProperty("results.dir", dir.resolve(folder).toString());
    return new Runner(RunSettings.fromProperties(phase, p, "geo"), p, new Binding("recording", db), dir).execute();
  }

  private static List<Restaurant> sorted(String sink) {
    List<Restaurant> stored = new ArrayList<>(RecordingGeoDB.SINKS.get(sink));
    stored.sort(Comparator.comparingLong(Restaurant::id));
    return stored;
  }

  @Test
  void aLoadInsertsTheWholeDatasetOnceWithoutRecordCount() throws Exception {
    RunResult result = run(Phase.LOAD, props("whole", "threadcount", "3"), RecordingGeoDB.class, "load");
    RestaurantDataset dataset = new RestaurantDataset(TestCities.FIVE, 0.01, Placement.UNIFORM_DISTANCE, 7);
    List<Restaurant> stored = sorted("whole");
    assertThat(stored).hasSize((int) dataset.size());
    for (int k = 0; k < stored.size(); k++) {
      assertThat(stored.get(k)).isEqualTo(dataset.restaurant(k));
    }
    assertThat(result.perOperation().get("INSERT").count()).isEqualTo(dataset.size());
    assertThat(result.hasFailures()).isFalse();
  }

  @Test
  void splitLoadsInsertExactlyWhatOneLoadInserts() throws Exception {
    run(Phase.LOAD, props("single", "threadcount", "1"), RecordingGeoDB.class, "single");
    long size = RecordingGeoDB.SINKS.get("single").size();
    long half = size / 2;
    run(Phase.LOAD, props("split", "threadcount", "2", "insertstart", "0", "insertcount", Long.toString(half)),
        RecordingGeoDB.class, "first");
    run(Phase.LOAD, props("split", "threadcount", "3", "insertstart", Long.toString(half),
        "insertcount", Long.toString(size - half)), RecordingGeoDB.class, "second");
    assertThat(sorted("split")).isEqualTo(sorted("single"));
  }

  @Test
  void aRunMeasuresEachQueryKindUnderItsName() throws Exception {
    RunResult result = run(Phase.RUN, props("mix", "threadcount", "2", "operationcount", "3000"), RecordingGeoDB.class,
        "run");
    long basic = result.perOperation().get("GEO_NEAR").count();
    long filtered = result.perOperation().get("GEO_NEAR_FILTERED").count();
    long next = result.perOperation().get("GEO_NEXT_PAGE").count();
    assertThat(basic + filtered + next).isEqualTo(3000);
    // Per basic query: 0.48 filtered and 0.32 next pages (all pages are full here).
    assertThat((double) filtered / basic).isBetween(0.40, 0.56);
    assertThat((double) next / basic).isBetween(0.25, 0.39);
    List<GeoQuery> queries = new ArrayList<>(RecordingGeoDB.QUERIES.get("mix"));
    assertThat(queries).hasSize(3000);
    assertThat(queries.stream().filter(q -> q.skip() == 10).count()).isEqualTo(next);
    assertThat(queries.stream().filter(q -> q.filter() != null).count()).isEqualTo(filtered);
  }

  @Test
  void theSameSeedGivesTheSameQueries() throws Exception {
    run(Phase.RUN, props("seeded-a", "operationcount", "200"), RecordingGeoDB.class, "a");
    run(Phase.RUN, props("seeded-b", "operationcount", "200"), RecordingGeoDB.class, "b");
    run(Phase.RUN, props("seeded-c", "operationcount", "200", "seed", "8"), RecordingGeoDB.class, "c");
    assertThat(new ArrayList<>(RecordingGeoDB.QUERIES.get("seeded-a")))
        .isEqualTo(new ArrayList<>(RecordingGeoDB.QUERIES.get("seeded-b")))
        .isNotEqualTo(new ArrayList<>(RecordingGeoDB.QUERIES.get("seeded-c")));
  }

  /** What a check before the run asks the router about is the query the run's first thread sends first. */
  @Test
  void theContractsFirstQueryIsTheFirstQueryTheRunSends() throws Exception {
    Properties p = props("first", "threadcount", "1", "operationcount", "5");
    run(Phase.RUN, p, RecordingGeoDB.class, "first");
    assertThat(org.geoshard.geo.contract.RestaurantCells.firstQuery(p))
        .isEqualTo(RecordingGeoDB.QUERIES.get("first").peek());
    Properties other = props("first-other", "threadcount", "1", "operationcount", "5", "seed", "8");
    assertThat(org.geoshard.geo.contract.RestaurantCells.firstQuery(other))
        .isNotEqualTo(RecordingGeoDB.QUERIES.get("first").peek());
  }

  @Test
  void aBindingWithoutTheGeoContractIsRefused() {
    assertThatThrownBy(() -> run(Phase.RUN, props("none", "operationcount", "10"), NoopDB.class, "noop"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("does not implement GeoContract");
  }

  @Test
  void insertRangesBeyondTheDatasetAreRefused() {
    assertThatThrownBy(() -> run(Phase.LOAD, props("beyond", "insertstart", "5", "insertcount", "100000"),
        RecordingGeoDB.class, "beyond"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("exceed the");
  }

  @Test
  void anInsertStartAtOrPastTheEndOfTheDatasetIsRefusedWithItsNumbers() throws Exception {
    GeoWorkload sized = new GeoWorkload();
    sized.init(props("sized"));
    long size = sized.insertCount();
    for (long start : new long[] {size, size + 1, 5_000_000}) {
      // Before: insertstart at the end read as "Nothing to load: set property 'recordcount'", past it as
      // "insertcount (0)", a count the user never gave.
      assertThatThrownBy(() -> new GeoWorkload().init(props("past", "insertstart", Long.toString(start))))
          .hasMessageContaining("Property insertstart (" + start + ") is not below the " + size + " restaurants");
    }
  }

  @Test
  void theWholeDatasetIsDeclaredWhateverPartThisClientLoads() throws Exception {
    for (String[] scaleAndSize : new String[][] {{"1", "13829385"}, {"0.001", "13829"}}) {
      Properties p = new Properties();
      p.setProperty("geo.scale", scaleAndSize[0]);
      p.setProperty("geo.placement", "uniformdistance");
      p.setProperty("insertstart", "100");
      p.setProperty("insertcount", "50");
      GeoWorkload workload = new GeoWorkload();
      workload.init(p);
      long whole = Long.parseLong(scaleAndSize[1]);
      assertThat(workload.insertCount()).isEqualTo(50);
      assertThat(workload.datasetSize()).isEqualTo(java.util.Map.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS, whole));
      assertThat(workload.runAddsRecords()).isFalse();
      org.geoshard.harness.api.DataDeclaration declared = org.geoshard.harness.api.DataDeclaration.ofInitialised(workload, p);
      assertThat(declared.expected().of(org.geoshard.geo.contract.GeoContract.RESTAURANTS)).isEqualTo(whole);
      assertThat(declared.expected().lowerBound()).isFalse();
    }
  }
}
