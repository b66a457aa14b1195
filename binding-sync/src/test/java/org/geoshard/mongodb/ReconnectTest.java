package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;
import org.junit.jupiter.api.Test;

/** A server that goes away and comes back on the same port: the operations fail meanwhile and work again after. */
class ReconnectTest {

  private static Map<String, ByteIterator> fields(String value) {
    Map<String, ByteIterator> values = new HashMap<>();
    values.put("field0", new StringByteIterator(value));
    return values;
  }

  @Test
  void operationsFailWhileTheServerIsDownAndSucceedOnceItIsBack() throws Exception {
    InProcessMongo first = new InProcessMongo();
    int port = first.port();
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(first.properties("mongodb.timeout.ms", "3000"));
    db.init();
    try {
      assertThat(db.insert("usertable", "user1", fields("a"))).isEqualTo(Status.OK);
      first.close();  // killed: the in-memory data is gone with it
      assertThat(db.insert("usertable", "user2", fields("b"))).as("while down").isEqualTo(Status.ERROR);
      assertThat(db.read("usertable", "user1", null, new HashMap<>())).as("while down").isEqualTo(Status.ERROR);
      try (InProcessMongo second = new InProcessMongo(port, false)) {
        // The driver finds the server again by itself (dropping the connections to the old one as it meets
        // them); allow it several deadlines to settle: three successes in a row.
        int inARow = 0;
        long giveUp = System.nanoTime() + 30_000_000_000L;
        for (int i = 0; inARow < 3 && System.nanoTime() < giveUp; i++) {
          inARow = db.insert("usertable", "back" + i, fields("c")) == Status.OK ? inARow + 1 : 0;
        }
        assertThat(inARow).as("after the restart").isEqualTo(3);
        for (int i = 0; i < 20; i++) {
          assertThat(db.insert("usertable", "more" + i, fields("d"))).isEqualTo(Status.OK);
          assertThat(db.read("usertable", "more" + i, null, new HashMap<>())).isEqualTo(Status.OK);
        }
      }
    } finally {
      db.cleanup();
    }
  }
}
