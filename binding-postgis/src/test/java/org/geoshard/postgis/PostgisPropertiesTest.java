package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.geoshard.harness.config.RecordingProperties;
import org.geoshard.harness.config.UnknownProperties;
import org.junit.jupiter.api.Test;

class PostgisPropertiesTest {
  private static Properties of(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  /** Every case a reader may branch on: defaults, every value set, a partitioned table, refused values. */
  private static final Properties[] CASES = {
      new Properties(),
      of("postgis.url", "jdbc:postgresql://h:5432/db", "postgis.user", "u", "postgis.password", "p",
          "postgis.table", "t", "postgis.index.when", "before", "postgis.drop", "true", "postgis.append", "true",
          "postgis.allowSeqScan", "true", "postgis.connectTimeout", "3",
          "batchsize", "10", "status.interval", "0", "postgis.partition", "none"),
      of("postgis.partition", "cells:4"),
      of("postgis.url", "mysql://x", "postgis.table", "a b", "batchsize", "0", "postgis.partition", "cells:x"),
  };

  private static Set<String> readInEveryCase() {
    Set<String> read = new TreeSet<>();
    read.addAll(RecordingProperties.namesReadBy(PostgisSettings::fromProperties, CASES));
    read.addAll(RecordingProperties.namesReadBy(CellPartitioning::fromProperties, CASES));
    return read;
  }

  @Test
  void theCatalogIsWhatTheSettingsReadersRead() {
    Set<String> ownRead = new TreeSet<>(readInEveryCase());
    ownRead.removeIf(name -> name.startsWith("geo."));
    assertThat(new TreeSet<>(new PostgisProperties().names())).isEqualTo(ownRead);
  }

  @Test
  void theCatalogHoldsTheBindingsNamesTheHarnessesStatusIntervalAndYcsbsBatchSize() {
    assertThat(new PostgisProperties().names()).containsExactlyInAnyOrder(PostgisSettings.URL, PostgisSettings.USER,
        PostgisSettings.PASSWORD, PostgisSettings.TABLE, PostgisSettings.INDEX_WHEN, PostgisSettings.DROP,
        PostgisSettings.APPEND, PostgisSettings.CONNECT_TIMEOUT, PostgisSettings.BATCH_SIZE,
        PostgisSettings.STATUS_INTERVAL, PostgisSettings.ALLOW_SEQ_SCAN, CellPartitioning.PARTITION);
  }

  @Test
  void whatAPartitionedTableReadsOfTheGeoWorkloadIsKnownToItsCatalog() {
    Set<String> geo = new TreeSet<>(readInEveryCase());
    geo.removeIf(name -> !name.startsWith("geo."));
    assertThat(geo).isNotEmpty().allMatch(name -> name.startsWith("geo.cells."));
    assertThat(UnknownProperties.fromClassPath().knownNames()).containsAll(geo);
  }

  @Test
  void aMisspelledBindingPropertyIsRefusedAndTheReadersProblemsAreSaid() {
    UnknownProperties unknown = UnknownProperties.fromClassPath();
    assertThat(unknown.problems(of("postgis.tabel", "t"))).anyMatch(p -> p.contains("postgis.tabel")
        && p.contains("postgis.table"));
    assertThat(unknown.problems(of("postgis.allowSeqScan", "true"))).isEmpty();
    assertThat(new PostgisProperties().problems(of("postgis.partition", "cells:0", "batchsize", "0"))).hasSize(2);
  }
}
