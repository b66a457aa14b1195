package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ReadPreference;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bson.BsonDocument;
import org.geoshard.geo.contract.Restaurant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/** The write concern the binding sends with its writes, seen on the wire (and honoured by the server). */
class WriteConcernTest {
  private InProcessMongo mongo;
  private final List<BsonDocument> inserts = new CopyOnWriteArrayList<>();
  private final CommandListener listener = new CommandListener() {
    @Override
    public void commandStarted(CommandStartedEvent event) {
      if (event.getCommandName().equals("insert")) {
        inserts.add(event.getCommand().clone());
      }
    }
  };

  @BeforeEach
  void start() {
    mongo = new InProcessMongo();
  }

  @AfterEach
  void stop() {
    mongo.close();
  }

  /** The writeConcern field of a geo batch and of a YCSB insert, written with the given properties. */
  private BsonDocument concernSent(String... pairs) throws Exception {
    inserts.clear();
    MongoGeoBinding db = new MongoGeoBinding(List.of(listener));
    db.setProperties(mongo.properties(pairs));
    db.init();
    try {
      assertThat(db.insert("usertable", "k" + System.nanoTime(), Map.of("f", new StringByteIterator("v"))))
          .isEqualTo(Status.OK);
      assertThat(db.insertRestaurant(new Restaurant(System.nanoTime(), "n", "c", "Polish", 2000, 1, 1, "$", false, 1, 2)))
          .isEqualTo(Status.BATCHED_OK);
    } finally {
      db.cleanup();
    }
    assertThat(inserts).hasSize(2);
    BsonDocument ycsb = inserts.get(0).getDocument("writeConcern", null);
    BsonDocument geo = inserts.get(1).getDocument("writeConcern", null);
    assertThat(geo).as("the geo load and YCSB's insert send the same").isEqualTo(ycsb);
    return ycsb;
  }

  @Test
  void noneSetMeansTheServersDefault() throws Exception {
    assertThat(concernSent()).isNull();
  }

  @Test
  void ycsbsPropertyNames() throws Exception {
    assertThat(concernSent("mongodb.writeConcern", "majority")).isEqualTo(BsonDocument.parse("{w: 'majority'}"));
    assertThat(concernSent("mongodb.writeConcern", "journaled")).isEqualTo(BsonDocument.parse("{w: 1, j: true}"));
    assertThat(concernSent("mongodb.writeConcern", "acknowledged")).isEqualTo(BsonDocument.parse("{w: 1}"));
  }

  @Test
  void orTheUrl() throws Exception {
    assertThat(concernSent("mongodb.url", mongo.url("ycsb") + "?w=majority&journal=true"))
        .isEqualTo(BsonDocument.parse("{w: 'majority', j: true}"));
  }

  @Test
  void readPreferenceReachesTheCollections() throws Exception {
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(mongo.properties("mongodb.readPreference", "nearest"));
    db.init();
    try {
      assertThat(db.geoCollection().getReadPreference()).isEqualTo(ReadPreference.nearest());
    } finally {
      db.cleanup();
    }
  }
}
