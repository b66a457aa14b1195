package org.geoshard.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
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
}
