package org.geoshard.geo.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.geoshard.geo.contract.Restaurant;
import org.junit.jupiter.api.Test;

class RestaurantJsonTest {
  @Test
  void writesTheStudysFieldsAsValidJson() throws Exception {
    Restaurant r = new Restaurant(7, "Sushi Bar 12", "Qu\u00e9bec \"Old\" \\ Town\t", "Sushi", 1999, 4, 321, "$$", true,
        -71.2, 46.8);
    String json = RestaurantJson.toJson(r);
    JsonNode node = new ObjectMapper().readTree(json);
    assertThat(node.get("_id").asLong()).isEqualTo(7);
    assertThat(node.get("Name").asText()).isEqualTo("Sushi Bar 12");
    assertThat(node.get("City").asText()).isEqualTo("Qu\u00e9bec \"Old\" \\ Town\t");
    assertThat(node.get("Cuisine").asText()).isEqualTo("Sushi");
    assertThat(node.get("Opened").asInt()).isEqualTo(1999);
    assertThat(node.get("Rating").asInt()).isEqualTo(4);
    assertThat(node.get("Reviews").asInt()).isEqualTo(321);
    assertThat(node.get("Pricing").asText()).isEqualTo("$$");
    assertThat(node.get("Outside_area").asBoolean()).isTrue();
    assertThat(node.at("/location/type").asText()).isEqualTo("Point");
    assertThat(node.at("/location/coordinates/0").asDouble()).isEqualTo(-71.2);
    assertThat(node.at("/location/coordinates/1").asDouble()).isEqualTo(46.8);
    assertThat(json).doesNotContain("\n");
  }

  @Test
  void countsUtf8BytesLikeTheEncoder() {
    for (String text : new String[] {"abc", "Kraków", "‘Ayn Ḩalāqīm", "東京", "emoji \uD83C\uDF55"}) {
      assertThat(RestaurantJson.utf8Length(text)).as(text).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
    }
  }
}
