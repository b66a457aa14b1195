package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoWriteException;
import com.mongodb.ServerAddress;
import com.mongodb.WriteError;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.result.DeleteResult;
import com.mongodb.client.result.UpdateResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import org.bson.BsonDocument;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.geoshard.harness.api.Preparable;
import org.geoshard.lastlocation.LastLocationWorkload;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import site.ycsb.Status;

/** The last-location operations where a real cluster differs from a quiet one: races, bad documents, shared names. */
class LastLocationOperationsTest {
  private static final String USER = "350000000000001";
  private InProcessMongo mongo;
  private MongoClient client;
  private MongoDatabase db;

  @BeforeEach
  void start() {
    mongo = new InProcessMongo();
    client = MongoClients.create(mongo.url("ycsb"));
    db = client.getDatabase("ycsb");
  }

  @AfterEach
  void stop() {
    client.close();
    mongo.close();
  }

  /**
   * The sync path, except that the first upsert loses a race: another client's first event of the same
   * user is inserted between this upsert's match and its insert, so the server answers duplicate key.
   */
  private final class RacedPath implements RequestPath {
    private final SyncRequestPath real = new SyncRequestPath(db);
    private final long competitorTime;
    private boolean raced;

    RacedPath(long competitorTime) {
      this.competitorTime = competitorTime;
    }

    @Override
    public UpdateResult updateOne(Op op, String collection, Document filter, Bson update, UpdateOptions options) {
      if (!raced) {
        raced = true;
        db.getCollection(collection).insertOne(new Document("_id", USER).append("T", competitorTime));
        throw new MongoWriteException(new WriteError(11000, "E11000 duplicate key error collection: ycsb."
            + collection + " index: _id_ dup key", new BsonDocument()), new ServerAddress());
      }
      return real.updateOne(op, collection, filter, update, options);
    }

    @Override
    public void find(Op op, String collection, Find find, Consumer<Document> sink) {
      real.find(op, collection, find, sink);
    }

    @Override
    public Document first(Op op, String collection, Find find) {
      return real.first(op, collection, find);
    }

    @Override
    public void insertOne(Op op, String collection, Document document) {
      real.insertOne(op, collection, document);
    }

    @Override
    public void upsertById(Op op, String collection, Document document) {
      real.upsertById(op, collection, document);
    }

    @Override
    public DeleteResult deleteOne(Op op, String collection, Document filter) {
      return real.deleteOne(op, collection, filter);
    }

    @Override
    public Written writeMany(Op op, String collection, List<Document> documents, boolean upsert) {
      return real.writeMany(op, collection, documents, upsert);
    }
  }

  private LastLocationOperations operations(RequestPath path) throws Exception {
    MongoLastLocationSettings settings = MongoLastLocationSettings.fromProperties(new Properties());
    return new LastLocationOperations(path, settings,
        new MongoOperations.Outcomes(new FailureLog(LoggerFactory.getLogger(LastLocationOperationsTest.class))));
  }

  @Test
  void theNewerOfTwoRacingFirstEventsWinsInsteadOfBeingCountedStale() throws Exception {
    LastLocationOperations ll = operations(new RacedPath(1_000));
    assertThat(ll.upsertLastLocation(new LocationEvent(USER, 7, 2_000, 48.8, 2.3))).isEqualTo(Status.OK);
    assertThat(db.getCollection("lastknownlocation").find(new Document("_id", USER)).first().getLong("T")).isEqualTo(2_000);
  }

  @Test
  void theOlderOfTwoRacingFirstEventsIsStale() throws Exception {
    LastLocationOperations ll = operations(new RacedPath(3_000));
    assertThat(ll.upsertLastLocation(new LocationEvent(USER, 7, 2_000, 48.8, 2.3))).isEqualTo(LastLocationContract.STALE);
    assertThat(((Number) db.getCollection("lastknownlocation").find(new Document("_id", USER)).first().get("T")).longValue())
        .isEqualTo(3_000);
  }

  @Test
  void aDocumentThatDoesNotMapIsAnErrorOfItsOperationNotAnException() throws Exception {
    db.getCollection("lastknownlocation").insertOne(new Document("_id", USER).append("T", "not a time"));
    LastLocationOperations ll = operations(new SyncRequestPath(db));
    List<LocationEvent> out = new ArrayList<>();
    assertThat(ll.readLastLocation(USER, out)).isEqualTo(Status.ERROR);
    assertThat(out).isEmpty();
  }

  @Test
  @SuppressWarnings("unchecked")
  void aDropRemovesOnlyThisWorkloadsHistorySplits() throws Exception {
    for (String name : List.of("history", "history_2026_01", "history_2026_02", "history_backup", "history_2026_01_02",
        "lastknownlocation", "restaurants")) {
      db.getCollection(name).insertOne(new Document("x", 1));
    }
    Properties p = mongo.properties("workload", LastLocationWorkload.class.getName(), "mongodb.drop", "true",
        "ll.history.split", "month", "ll.users", "10", "ll.cells", "10");
    MongoGeoBinding binding = new MongoGeoBinding();
    binding.setProperties(p);
    binding.init();
    try {
      RecordingSteps steps = new RecordingSteps();
      binding.prepare(Preparable.Stage.BEFORE_LOAD,
          java.util.Set.of(org.geoshard.lastlocation.contract.LastLocationContract.HISTORY,
          org.geoshard.lastlocation.contract.LastLocationContract.LAST_KNOWN), steps);
      // What was dropped, each with the documents it held.
      assertThat((java.util.Map<String, Object>) steps.steps.get("drop last-location collections").get("dropped"))
          .containsOnly(java.util.Map.entry("history", 1L), java.util.Map.entry("history_2026_01", 1L),
              java.util.Map.entry("history_2026_02", 1L), java.util.Map.entry("lastknownlocation", 1L));
    } finally {
      binding.cleanup();
    }
    List<String> names = db.listCollectionNames().into(new ArrayList<>());
    assertThat(names).contains("history_backup", "history_2026_01_02", "restaurants");
    for (String kept : List.of("history_backup", "history_2026_01_02", "restaurants")) {
      assertThat(db.getCollection(kept).countDocuments()).as(kept).isEqualTo(1);
    }
    assertThat(db.getCollection("history_2026_01").countDocuments()).as("dropped, then prepared empty").isZero();
  }
}
