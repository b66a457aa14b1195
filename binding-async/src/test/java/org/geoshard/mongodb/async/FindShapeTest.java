package org.geoshard.mongodb.async;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bson.BsonDocument;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.geoshard.mongodb.InProcessMongo;
import org.geoshard.mongodb.ListenedBindings;
import org.geoshard.mongodb.MongoBinding;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * Both bindings put the same find commands on the wire for the same operations (a CommandListener
 * records them): in particular no {@code batchSize: 2147483647} from the reactive driver on finds
 * without a limit (History ranges), which it sends when left to size batches by demand.
 */
class FindShapeTest {
  private static final long START = 1_769_731_200_000L;  // 2026-01-30T00:00:00Z
  private InProcessMongo mongo;

  @BeforeEach
  void start() {
    mongo = new InProcessMongo();
  }

  @AfterEach
  void stop() {
    mongo.close();
  }

  /** The find commands one binding sends for reads, scans and History ranges, without session fields. */
  private List<BsonDocument> finds(MongoBinding db, List<BsonDocument> recorded) throws Exception {
    Properties p = mongo.properties("ll.history.batchsize", "1");
    db.setProperties(p);
    db.init();
    try {
      Map<String, ByteIterator> values = new HashMap<>();
      values.put("field0", new StringByteIterator("x"));
      for (int i = 0; i < 5; i++) {
        db.insert("usertable", "user" + i, values);
        db.appendHistory(new LocationEvent("350000000000001", i, START + i * 60_000L, 50, 20));
      }
      recorded.clear();
      assertThat(db.read("usertable", "user1", null, new HashMap<>())).isEqualTo(Status.OK);
      assertThat(db.read("usertable", "user2", Set.of("field0"), new HashMap<>())).isEqualTo(Status.OK);
      assertThat(db.scan("usertable", "user1", 3, null, new Vector<>())).isEqualTo(Status.OK);
      List<LocationEvent> out = new ArrayList<>();
      assertThat(db.historyRange("350000000000001", START, START + 3_600_000L, out)).isEqualTo(Status.OK);
      assertThat(out).hasSize(5);
      assertThat(db.readLastLocation("350000000000001", new ArrayList<>())).isEqualTo(Status.OK);
    } finally {
      db.cleanup();
    }
    return new ArrayList<>(recorded);
  }

  private static CommandListener recorder(List<BsonDocument> into) {
    return new CommandListener() {
      @Override
      public void commandStarted(CommandStartedEvent event) {
        if (event.getCommandName().equals("find")) {
          // A copy now: the event's document reads from a buffer the driver reuses.
          BsonDocument command = BsonDocument.parse(event.getCommand().toJson());
          for (String session : List.of("lsid", "$clusterTime", "$db", "txnNumber", "$readPreference")) {
            command.remove(session);
          }
          // The deadline's remainder differs by the milliseconds already spent: its presence is the shape.
          command.put("maxTimeMS", new org.bson.BsonBoolean(command.remove("maxTimeMS") != null));
          into.add(command);
        }
      }
    };
  }

  @Test
  void theReactiveBindingSendsTheSyncBindingsFindCommands() throws Exception {
    List<BsonDocument> syncRecorded = new CopyOnWriteArrayList<>();
    List<BsonDocument> sync = finds(ListenedBindings.sync(List.of(recorder(syncRecorded))), syncRecorded);
    mongo.close();
    mongo = new InProcessMongo();
    List<BsonDocument> asyncRecorded = new CopyOnWriteArrayList<>();
    List<BsonDocument> reactive = finds(new MongoAsyncBinding(List.of(recorder(asyncRecorded))), asyncRecorded);

    assertThat(sync).hasSize(5);
    assertThat(reactive).isEqualTo(sync);
    assertThat(reactive).noneMatch(c -> c.containsKey("batchSize") && c.get("batchSize").asNumber().longValue() > 1_000_000);
    BsonDocument range = reactive.stream().filter(c -> c.getString("find").getValue().startsWith("history")).findFirst()
        .orElseThrow();
    assertThat(range.containsKey("limit")).as("a History range has no limit").isFalse();
    assertThat(range.containsKey("batchSize")).as("nor a batch size: the server's default, as the sync driver").isFalse();
  }
}
