package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.bson.BsonDocument;
import org.bson.Document;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.RestaurantJson;
import org.junit.jupiter.api.Test;

class RestaurantDocumentsTest {
  static final Restaurant KRAKOW = new Restaurant(4711L, "Polish Bar 12", "Kraków", "Polish", 1999, 4, 321, "$$", true,
      19.9366, 50.0614);

  @Test
  void theStudysShapeWithALongIdAndAGeoJsonPoint() {
    BsonDocument bson = RestaurantDocuments.toDocument(KRAKOW).toBsonDocument();
    assertThat(bson.keySet()).containsExactly("_id", "Name", "City", "Cuisine", "Opened", "Rating", "Reviews", "Pricing",
        "Outside_area", "location");
    assertThat(bson.get("_id").isInt64()).isTrue();
    assertThat(bson.getDocument("location").toJson())
        .isEqualTo("{\"type\": \"Point\", \"coordinates\": [19.9366, 50.0614]}");
    // The same document mongoimport makes from the workload's JSON lines (bar the id's width).
    assertThat(Document.parse(RestaurantJson.toJson(KRAKOW)).toJson())
        .isEqualTo(RestaurantDocuments.toDocument(KRAKOW).append("_id", 4711).toJson());
  }

  @Test
  void roundTrip() {
    assertThat(RestaurantDocuments.fromDocument(RestaurantDocuments.toDocument(KRAKOW))).isEqualTo(KRAKOW);
  }

  @Test
  void readsIntsWhereMongoimportLeftThem() {
    Document imported = Document.parse(RestaurantJson.toJson(KRAKOW));
    assertThat(imported.get("_id")).isInstanceOf(Integer.class);
    assertThat(RestaurantDocuments.fromDocument(imported)).isEqualTo(KRAKOW);
  }

  @Test
  void aBrokenDocumentIsNamed() {
    Document d = RestaurantDocuments.toDocument(KRAKOW);
    d.remove("City");
    assertThatThrownBy(() -> RestaurantDocuments.fromDocument(d))
        .hasMessage("restaurant 4711: field 'City' is missing, expected a String");
    Document e = RestaurantDocuments.toDocument(KRAKOW).append("location", new Document("type", "Point")
        .append("coordinates", List.of(1.0)));
    assertThatThrownBy(() -> RestaurantDocuments.fromDocument(e))
        .hasMessage("restaurant 4711: location.coordinates must hold 2 numbers");
  }
}
