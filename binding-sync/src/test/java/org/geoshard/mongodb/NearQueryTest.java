package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.Document;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.geoshard.geo.contract.AttributeFilter;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.dataset.Sphere;
import org.junit.jupiter.api.Test;

/**
 * The exact BSON of every query shape, as canonical extended JSON (every number's type shows), against
 * golden files in {@code src/test/resources/golden}. After an intended change, regenerate them with
 * {@code mvn test -pl binding-sync -Dtest=NearQueryTest -Dgolden.update=true} and review the diff.
 */
class NearQueryTest {
  static final JsonWriterSettings CANONICAL = JsonWriterSettings.builder().outputMode(JsonMode.EXTENDED).indent(true)
      .newLineCharacters("\n").build();
  private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");

  /** Kraków's centre, 5 km, 10 results: the study's basic query. */
  static final GeoQuery BASIC = GeoQuery.firstPage(19.93658, 50.06143, 5000, 10);

  /** Every shape the workload sends, by golden file name. */
  static Map<String, GeoQuery> shapes() {
    Map<String, GeoQuery> shapes = new TreeMap<>();
    shapes.put("near-basic", BASIC);
    shapes.put("near-cuisine", BASIC.withFilter(new AttributeFilter.CuisineEquals("Polish")));
    shapes.put("near-rating", BASIC.withFilter(new AttributeFilter.RatingGreaterThan(3)));
    shapes.put("near-outside-area", BASIC.withFilter(new AttributeFilter.OutsideAreaEquals(true)));
    shapes.put("near-pricing", BASIC.withFilter(new AttributeFilter.PricingEquals("$$")));
    shapes.put("near-skip-page", BASIC.withSkip(10));
    shapes.put("near-min-distance-page", BASIC.withMinDistance(1234.5, Set.of(42L, 7L)));
    return shapes;
  }

  static String canonical(GeoQuery query) {
    return NearQuery.of(query).toFindCommand("restaurants").toJson(CANONICAL) + "\n";
  }

  @Test
  void everyShapeMatchesItsGoldenFile() throws IOException {
    boolean update = Boolean.getBoolean("golden.update");
    for (Map.Entry<String, GeoQuery> shape : shapes().entrySet()) {
      Path file = GOLDEN.resolve(shape.getKey() + ".json");
      String actual = canonical(shape.getValue());
      if (update) {
        Files.createDirectories(GOLDEN);
        Files.writeString(file, actual, StandardCharsets.UTF_8);
      }
      assertThat(actual).as("%s (regenerate with -Dgolden.update=true after an intended change)", file)
          .isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    }
  }

  @Test
  void scaledDistancesAreOnTheServersEarthRadius() {
    NearQuery q = NearQuery.of(BASIC.withMinDistance(1000, Set.of()), MongoSettings.MaxDistance.SCALED);
    Document near = q.filter().get("location", Document.class).get("$nearSphere", Document.class);
    double k = 6_378_100.0 / Sphere.EARTH_RADIUS_METERS;
    assertThat(near.getDouble("$maxDistance")).isCloseTo(5000 * k, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(near.getDouble("$minDistance")).isCloseTo(1000 * k, org.assertj.core.data.Offset.offset(1e-9));
    // The same angle in both metrics: what the server measures is what the workload's sphere says, scaled.
    double angle = 5000 / Sphere.EARTH_RADIUS_METERS;
    assertThat(NearQuery.toServerMeters(5000)).isCloseTo(angle * NearQuery.SERVER_EARTH_RADIUS_METERS,
        org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void maxDistanceIsSentAsTheStudySentItByDefault() {
    // The study's client: meters = random.randint(5000, 50000); {"$maxDistance": meters}: an int32 of the drawn metres.
    Document near = NearQuery.of(BASIC).filter().get("location", Document.class).get("$nearSphere", Document.class);
    assertThat(near.get("$maxDistance")).isEqualTo(5000);
    assertThat(near.toBsonDocument().get("$maxDistance").isInt32()).isTrue();
    // geoshard's own min-distance paging stays on the workload's sphere: it resumes at a distance the workload measured.
    Document page = NearQuery.of(BASIC.withMinDistance(1000, Set.of())).filter().get("location", Document.class)
        .get("$nearSphere", Document.class);
    assertThat(page.get("$maxDistance")).isEqualTo(5000);
    assertThat(page.getDouble("$minDistance")).isCloseTo(NearQuery.toServerMeters(1000), org.assertj.core.data.Offset.offset(1e-9));
    assertThat(NearQuery.asDrawn(5000.5)).isEqualTo(5000.5);
  }

  @Test
  void theFirstPageSendsNeitherSkipNorMinDistance() {
    NearQuery q = NearQuery.of(BASIC);
    assertThat(q.skip()).isZero();
    assertThat(q.limit()).isEqualTo(10);
    assertThat(q.filter().keySet()).containsExactly("location");
    assertThat(q.filter().get("location", Document.class).get("$nearSphere", Document.class).keySet())
        .containsExactly("$geometry", "$maxDistance");
    assertThat(q.toFindCommand("restaurants").keySet()).containsExactly("find", "filter", "limit");
  }

  @Test
  void excludedIdsAreLongsInAStableOrder() {
    BsonDocument filter = NearQuery.of(BASIC.withMinDistance(10, Set.of(9L, 3L, 5L))).filter()
        .toBsonDocument();
    assertThat(filter.getDocument("_id").getArray("$nin").getValues())
        .containsExactly(new BsonInt64(3), new BsonInt64(5), new BsonInt64(9));
  }
}
