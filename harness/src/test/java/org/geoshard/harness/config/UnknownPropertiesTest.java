package org.geoshard.harness.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.geoshard.harness.run.HarnessProperties;
import org.junit.jupiter.api.Test;

class UnknownPropertiesTest {
  private static final PropertyCatalog GEO = new PropertyCatalog() {
    @Override
    public Set<String> prefixes() {
      return Set.of("geo.");
    }

    @Override
    public Set<String> names() {
      return Set.of("geo.scale", "geo.placement", "geo.paging", "geo.router.*");
    }
  };

  @Test
  void flagsTyposUnderOwnedPrefixesWithASuggestion() {
    Properties p = new Properties();
    p.setProperty("geo.scael", "0.1");
    p.setProperty("geo.scale", "0.1");
    p.setProperty("geo.completely.different", "x");
    assertThat(new UnknownProperties(List.of(GEO)).problems(p)).containsExactly(
        "Property 'geo.completely.different' is unknown.",
        "Property 'geo.scael' is unknown; did you mean 'geo.scale'?");
  }

  @Test
  void namePatternsAcceptNamesTheUserMakes() {
    Properties p = new Properties();
    p.setProperty("geo.router.shard01", "x");
    p.setProperty("geo.router.rs-eu", "y");
    p.setProperty("geo.routers", "z");
    assertThat(new UnknownProperties(List.of(GEO)).problems(p)).containsExactly("Property 'geo.routers' is unknown.");
  }

  @Test
  void ignoresNamesOutsideOwnedPrefixes() {
    Properties p = new Properties();
    p.setProperty("mybinding.host", "x");
    p.setProperty("fieldcount", "10");
    assertThat(new UnknownProperties(List.of(GEO)).problems(p)).isEmpty();
  }

  @Test
  void aValueTheCallerFoundFaultWithIsNotFaultedAgainByAModuleThatReadsItToo() {
    // As binding-postgis reads the harness's status.interval: the launcher's own problem is the one said.
    PropertyCatalog postgis = new PropertyCatalog() {
      @Override
      public Set<String> prefixes() {
        return Set.of("postgis.");
      }

      @Override
      public Set<String> names() {
        return Set.of("postgis.url");
      }

      @Override
      public List<String> problems(Properties properties) {
        return List.of("Property 'status.interval' must be a whole number of at least 0, but is 'abc'.");
      }
    };
    Properties p = new Properties();
    p.setProperty("status.interval", "abc");
    p.setProperty("postgis.ulr", "x");
    String said = "Property 'status.interval' must be a whole number of at least 0, but is 'abc'.";
    assertThat(new UnknownProperties(List.of(postgis)).problems(p, List.of(said))).containsExactly(
        "Property 'postgis.ulr' is unknown; did you mean 'postgis.url'?", said);
  }

  @Test
  void knownNamesHoldYcsbsCoreWorkloadAndClientNames() {
    // What bin/test docs checks the READMEs' plain names against (KnownPropertyNames prints these).
    assertThat(new UnknownProperties(List.of(GEO)).knownNames()).contains("threadcount", "recordcount",
        "operationcount", "readproportion", "requestdistribution", "fieldlengthdistribution", "hotspotdatafraction",
        "insertstart", "maxexecutiontime", "exportfile", "exporter", "measurementtype");
  }

  @Test
  void harnessCatalogIsFoundOnTheClassPath() {
    Properties p = new Properties();
    p.setProperty("results.lable", "x");
    assertThat(UnknownProperties.fromClassPath().problems(p))
        .containsExactly("Property 'results.lable' is unknown; did you mean 'results.label'?");
  }

  @Test
  void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
    assertThat(UnknownProperties.editDistance("kitten", "sitting")).isEqualTo(3);
    assertThat(UnknownProperties.editDistance("", "abc")).isEqualTo(3);
    assertThat(UnknownProperties.editDistance("same", "same")).isZero();
  }

  @Test
  void warnsOfATypoOutsideEveryPrefixWithYcsbsOwnNames() {
    Properties p = new Properties();
    p.setProperty("recordcont", "100");
    p.setProperty("readproportoin", "0.5");
    p.setProperty("geo.scale", "0.1");
    p.setProperty("mybinding.host", "x");
    p.setProperty("fieldcount", "10");
    UnknownProperties unknown = new UnknownProperties(List.of(GEO));
    assertThat(unknown.problems(p)).isEmpty();
    assertThat(unknown.warnings(p)).containsExactly(
        "Property 'readproportoin' is read by no module geoshard knows; did you mean 'readproportion'? (It is kept,"
            + " for a binding or workload that reads it.)",
        "Property 'recordcont' is read by no module geoshard knows; did you mean 'recordcount'? (It is kept, for a"
            + " binding or workload that reads it.)");
  }

  @Test
  void aPropertyTheHarnessFaultsIsNotFaultedAgainByAModule() {
    Properties p = new Properties();
    p.setProperty("geo.url", "mongodb://bob:Lk@Zq9@127.0.0.1/ycsb");
    PropertyCatalog driver = new PropertyCatalog() {
      @Override
      public java.util.Set<String> prefixes() {
        return java.util.Set.of("geo.");
      }

      @Override
      public java.util.Set<String> names() {
        return java.util.Set.of("geo.url");
      }

      @Override
      public List<String> problems(Properties properties) {
        return List.of("Property 'geo.url' is not a valid connection string: invalid user information.");
      }
    };
    List<String> problems = new UnknownProperties(List.of(driver, new HarnessProperties())).problems(p);
    assertThat(problems).hasSize(1);
    assertThat(problems.get(0)).startsWith("Property 'geo.url': the password in").contains("unencoded '@'");
  }

  @Test
  void knownNamesListModuleNamesYcsbNamesAndPatternsSorted() {
    List<String> known = List.copyOf(new UnknownProperties(List.of(GEO)).knownNames());
    assertThat(known).contains("geo.scale", "geo.router.*", "recordcount", "operationcount")
        .doesNotContain("geo.router.", "geo.scael")
        .isSorted();
  }
}
