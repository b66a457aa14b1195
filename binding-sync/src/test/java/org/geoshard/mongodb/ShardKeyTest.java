package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.bson.Document;
import org.junit.jupiter.api.Test;

class ShardKeyTest {

  private static List<String> problems(String text) {
    List<String> problems = new ArrayList<>();
    assertThat(ShardKey.parse("mongodb.shardkey", text, problems)).isNull();
    return problems;
  }

  @Test
  void theStudysKeyAndOthers() {
    assertThat(ShardKey.of("Name:hashed").toDocument()).isEqualTo(new Document("Name", "hashed"));
    assertThat(ShardKey.of("_id:hashed").toDocument().toJson()).isEqualTo("{\"_id\": \"hashed\"}");
    assertThat(ShardKey.of(" City:1 , _id:1 ").toDocument().toJson()).isEqualTo("{\"City\": 1, \"_id\": 1}");
    assertThat(ShardKey.of("City:1,_id:1").hashed()).isFalse();
    assertThat(ShardKey.of("Name:HASHED").hashed()).isTrue();
    assertThat(ShardKey.of("City:1,_id:1")).hasToString("City:1,_id:1");
  }

  @Test
  void matchesTheKeyTheServerStored() {
    ShardKey ranged = ShardKey.of("City:1,_id:1");
    assertThat(ranged.matches(new Document("City", 1.0).append("_id", 1L))).isTrue();
    assertThat(ranged.matches(new Document("_id", 1).append("City", 1))).as("order matters").isFalse();
    assertThat(ShardKey.of("Name:hashed").matches(new Document("Name", "hashed"))).isTrue();
    assertThat(ShardKey.of("Name:hashed").matches(new Document("Name", 1))).isFalse();
    assertThat(ShardKey.of("Name:hashed").matches(null)).isFalse();
  }

  @Test
  void everyMistakeIsNamed() {
    assertThat(problems("Name")).containsExactly("Property 'mongodb.shardkey' must be comma-separated field:kind parts "
        + "with kind 'hashed' or '1' (e.g. Name:hashed or City:1,_id:1), but is 'Name'.");
    assertThat(problems("Name:hashed,")).hasSize(1);
    assertThat(problems("Name:-1")).containsExactly(
        "Property 'mongodb.shardkey' gives field 'Name' the kind '-1'; a shard key field is 'hashed' or '1' (ranged).");
    assertThat(problems("City:1,City:1")).containsExactly("Property 'mongodb.shardkey' names the field 'City' twice.");
    assertThat(problems("$x:1")).containsExactly(
        "Property 'mongodb.shardkey' names the field '$x', which cannot be a shard key field.");
    assertThat(problems("Name:hashed,City:hashed")).containsExactly(
        "Property 'mongodb.shardkey' has more than one hashed field; MongoDB allows one hashed field per shard key.");
  }
}
