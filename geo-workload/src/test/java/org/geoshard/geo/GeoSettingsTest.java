package org.geoshard.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.geoshard.geo.cities.CityEncoding;
import org.geoshard.geo.dataset.Placement;
import org.geoshard.geo.query.Paging;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;

class GeoSettingsTest {
  @Test
  void defaultsAreTheStudys() throws ConfigException {
    GeoSettings s = GeoSettings.fromProperties(new Properties());
    assertThat(s.cities()).isNull();
    assertThat(s.scale()).isEqualTo(1.0);
    assertThat(s.placement()).isEqualTo(Placement.UNIFORM_DISTANCE);
    assertThat(s.paging()).isEqualTo(Paging.SKIP);
    assertThat(s.minRadiusMeters()).isEqualTo(5_000);
    assertThat(s.maxRadiusMeters()).isEqualTo(50_000);
    assertThat(s.pageSize()).isEqualTo(10);
    assertThat(s.endProportion() + s.filterProportion() + s.nextPageProportion()).isEqualTo(1.0);
    assertThat(s.seed()).isEqualTo(1);
  }

  @Test
  void acceptsTheIssuesSpellings() throws ConfigException {
    Properties p = new Properties();
    p.setProperty("geo.placement", "uniformarea");
    p.setProperty("geo.paging", "mindistance");
    GeoSettings s = GeoSettings.fromProperties(p);
    assertThat(s.placement()).isEqualTo(Placement.UNIFORM_AREA);
    assertThat(s.paging()).isEqualTo(Paging.MIN_DISTANCE);
  }

  @Test
  void reportsEveryInconsistency() {
    Properties p = new Properties();
    p.setProperty("geo.scale", "0");
    p.setProperty("geo.radius.min", "60000");
    p.setProperty("geo.proportion.end", "0.5");
    p.setProperty("geo.placement", "gaussian");
    assertThatThrownBy(() -> GeoSettings.fromProperties(p))
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
            "Property 'geo.placement' must be one of uniformdistance, uniformarea, but is 'gaussian'.",
            "Property 'geo.scale' must be greater than 0 (0.001 gives about 14 thousand restaurants).",
            "Property 'geo.radius.min' (60000) must not exceed 'geo.radius.max' (50000).",
            "Properties geo.proportion.end (0.5), geo.proportion.filter (0.48) and geo.proportion.nextpage (0.32) must add up to 1."));
  }

  @Test
  void theCitiesEncodingIsUtf8OrLatin1ByAnyOfTheirNames() throws ConfigException {
    Properties p = new Properties();
    assertThat(GeoSettings.fromProperties(p).citiesEncoding()).isEqualTo(CityEncoding.UTF_8);
    p.setProperty("geo.cities", "cities.csv");
    for (String latin1 : new String[] {"ISO-8859-1", "iso-8859-1", "latin1", "ISO8859_1"}) {
      p.setProperty("geo.cities.encoding", latin1);
      assertThat(GeoSettings.fromProperties(p).citiesEncoding()).as(latin1).isEqualTo(CityEncoding.ISO_8859_1);
    }
    p.setProperty("geo.cities.encoding", "utf8");
    assertThat(GeoSettings.fromProperties(p).citiesEncoding()).isEqualTo(CityEncoding.UTF_8);
  }

  @Test
  void anotherEncodingOrOneWithoutAFileIsRefused() {
    Properties p = new Properties();
    p.setProperty("geo.cities", "cities.csv");
    p.setProperty("geo.cities.encoding", "windows-1252");
    assertThatThrownBy(() -> GeoSettings.fromProperties(p)).isInstanceOf(ConfigException.class)
        .hasMessage("Property 'geo.cities.encoding' must be UTF-8 or ISO-8859-1, but is 'windows-1252'.");
    p.setProperty("geo.cities.encoding", "no such charset!");
    assertThatThrownBy(() -> GeoSettings.fromProperties(p)).hasMessageContaining("but is 'no such charset!'");
    p.remove("geo.cities");
    p.setProperty("geo.cities.encoding", "ISO-8859-1");
    assertThatThrownBy(() -> GeoSettings.fromProperties(p)).hasMessage("Property 'geo.cities.encoding' applies only"
        + " to a cities file named by 'geo.cities' (the bundled cities are UTF-8); set both or neither.");
  }
}
