package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.bson.Document;
import org.junit.jupiter.api.Test;

class InsertBufferTest {

  @Test
  void handsOverAFullBatchAndKeepsTheRest() {
    InsertBuffer buffer = new InsertBuffer(3);
    assertThat(buffer.add(new Document("_id", 1))).isNull();
    assertThat(buffer.add(new Document("_id", 2))).isNull();
    List<Document> batch = buffer.add(new Document("_id", 3));
    assertThat(batch).extracting(d -> d.get("_id")).containsExactly(1, 2, 3);
    assertThat(buffer.size()).isZero();
    assertThat(buffer.add(new Document("_id", 4))).isNull();
    assertThat(buffer.size()).isEqualTo(1);
  }

  @Test
  void drainWritesTheLeftoversOnce() {
    InsertBuffer buffer = new InsertBuffer(100);
    for (int i = 0; i < 250; i++) {
      List<Document> batch = buffer.add(new Document("_id", i));
      assertThat(batch == null).isEqualTo((i + 1) % 100 != 0);
    }
    List<List<Document>> written = new ArrayList<>();
    buffer.drain(written::add);
    buffer.drain(written::add);
    assertThat(written).hasSize(1);
    assertThat(written.get(0)).hasSize(50).first().extracting(d -> d.get("_id")).isEqualTo(200);
  }

  @Test
  void drainOfAnEmptyBufferWritesNothing() {
    List<List<Document>> written = new ArrayList<>();
    new InsertBuffer(5).drain(written::add);
    assertThat(written).isEmpty();
  }

  @Test
  void aFailedWriteStillEmptiesTheBuffer() {
    InsertBuffer buffer = new InsertBuffer(5);
    buffer.add(new Document("_id", 1));
    assertThatThrownBy(() -> buffer.drain(b -> {
      throw new IllegalStateException("write failed");
    })).hasMessage("write failed");
    assertThat(buffer.size()).isZero();
  }

  @Test
  void batchOfOneWritesEachDocument() {
    InsertBuffer buffer = new InsertBuffer(1);
    assertThat(buffer.add(new Document("_id", 1))).hasSize(1);
    assertThatThrownBy(() -> new InsertBuffer(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
