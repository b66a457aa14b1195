package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.result.DeleteResult;
import com.mongodb.client.result.UpdateResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.function.Consumer;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import site.ycsb.Status;

/**
 * The LastKnownLocation upsert under {@code _id:1,CellId:1}, on the in-process server, through a path that
 * holds every write to the rule a sharded cluster applies to that key (manual, "Change a Document's Shard
 * Key Value"; SERVER-1689): an upsert, or an update that sets a key field, must have equality on the whole
 * key in its filter. The plain {_id, T: {$lt}} upsert breaks the rule on the first event.
 */
class WholeKeyUpsertTest {
  private static final List<String> KEY = List.of("_id", "CellId");
  private MongoClient client;
  private InProcessMongo mongo;
  private MongoCollection<Document> lkl;

  @BeforeEach
  void start() {
    mongo = new InProcessMongo();
    client = MongoClients.create(mongo.url("ycsb"));
    lkl = client.getDatabase("ycsb").getCollection("lastknownlocation");
  }

  @AfterEach
  void stop() {
    client.close();
    mongo.close();
  }

  /** The sync path with the whole-key rule, a count of requests, and a hook run once before a chosen write. */
  private static class KeyRulePath implements RequestPath {
    private final SyncRequestPath real;
    int requests;
    Runnable beforeInsert = () -> { };
    Runnable beforeUpdateByStoredTime = () -> { };

    KeyRulePath(MongoDatabase db) {
      real = new SyncRequestPath(db);
    }

    private static void requireWholeKey(String what, Document filter) {
      for (String field : KEY) {
        Object value = filter.get(field);
        if (!filter.containsKey(field) || value instanceof Document d && d.keySet().stream().anyMatch(k -> k.startsWith("$"))) {
          throw new AssertionError(what + " without equality on " + field + " of the shard key {_id: 1, CellId: 1}: "
              + filter.toJson());
        }
      }
    }

    @Override
    public UpdateResult updateOne(Op op, String collection, Document filter, Bson update, UpdateOptions options) {
      requests++;
      Document set = ((Document) update).get("$set", Document.class);
      if (options.isUpsert()) {
        requireWholeKey("an upsert", filter);
      }
      if (KEY.stream().anyMatch(set::containsKey)) {
        requireWholeKey("an update that sets a shard key field", filter);
      }
      if (!(filter.get("T") instanceof Document)) {
        Runnable hook = beforeUpdateByStoredTime;
        beforeUpdateByStoredTime = () -> { };
        hook.run();
      }
      return real.updateOne(op, collection, filter, update, options);
    }

    @Override
    public void insertOne(Op op, String collection, Document document) {
      requests++;
      requireWholeKey("an insert", document);
      Runnable hook = beforeInsert;
      beforeInsert = () -> { };
      hook.run();
      real.insertOne(op, collection, document);
    }

    @Override
    public Document first(Op op, String collection, Find find) {
      requests++;
      return real.first(op, collection, find);
    }

    @Override
    public void find(Op op, String collection, Find find, Consumer<Document> sink) {
      requests++;
      real.find(op, collection, find, sink);
    }

    @Override
    public void upsertById(Op op, String collection, Document document) {
      throw new AssertionError("not a request of the LastKnownLocation upsert");
    }

    @Override
    public DeleteResult deleteOne(Op op, String collection, Document filter) {
      throw new AssertionError("not a request of the LastKnownLocation upsert");
    }

    @Override
    public Written writeMany(Op op, String collection, List<Document> documents, boolean upsert) {
      throw new AssertionError("not a request of the LastKnownLocation upsert");
    }
  }

  private KeyRulePath path() {
    return new KeyRulePath(client.getDatabase("ycsb"));
  }

  /** The binding's operations with mongodb.ll.lkl.shardkey=_id:1,CellId:1. */
  private static LastLocationOperations operations(RequestPath path) throws Exception {
    Properties p = new Properties();
    p.setProperty(MongoLastLocationSettings.LKL_SHARD_KEY, "_id:1,CellId:1");
    return new LastLocationOperations(path, MongoLastLocationSettings.fromProperties(p),
        new MongoOperations.Outcomes(new FailureLog(LoggerFactory.getLogger(WholeKeyUpsertTest.class))));
  }

  private static LocationEvent event(String user, long t, int cell) {
    return new LocationEvent(user, cell, t, 48 + cell * 0.01, 2 + cell * 0.01);
  }

  private LocationEvent stored(String user) {
    Document d = lkl.find(new Document("_id", user)).first();
    return d == null ? null : LastLocationDocuments.fromLastKnown(d);
  }

  @Test
  void aStayCostsOneRequestAndAFirstEventOrAMoveThreeEachUnderTheWholeKey() throws Exception {
    KeyRulePath path = path();
    LastLocationOperations ll = operations(path);
    record Step(LocationEvent event, Status status, int requests) { }
    List<Step> steps = List.of(
        new Step(event("u1", 1_000, 7), Status.OK, 3),                  // update misses, read: none, insert
        new Step(event("u1", 2_000, 7), Status.OK, 1),                  // same cell: the update matches
        new Step(event("u1", 3_000, 9), Status.OK, 3),                  // moved: update misses, read, update by stored key
        new Step(event("u1", 2_500, 9), LastLocationContract.STALE, 2), // older, same cell: update misses, read
        new Step(event("u1", 2_900, 4), LastLocationContract.STALE, 2), // older, another cell
        new Step(event("u1", 3_000, 5), LastLocationContract.STALE, 2)); // as new: not newer
    for (Step step : steps) {
      int before = path.requests;
      assertThat(ll.upsertLastLocation(step.event())).as("%s", step.event()).isEqualTo(step.status());
      assertThat(path.requests - before).as("requests for %s", step.event()).isEqualTo(step.requests());
    }
    assertThat(stored("u1")).isEqualTo(event("u1", 3_000, 9));
    assertThat(lkl.countDocuments()).isEqualTo(1);
  }

  /**
   * A seeded stream of 4,000 events for 40 users over 6 cells, in shuffled time order (every time
   * distinct): each event is OK exactly when it is newer than every earlier one of its user, and each
   * user ends with one document, its newest event.
   */
  @Test
  void aShuffledStreamLeavesEveryUserItsNewestEventAndCallsTheRestStale() throws Exception {
    Random random = new Random(38);
    List<LocationEvent> events = new ArrayList<>();
    for (int i = 0; i < 4_000; i++) {
      events.add(event("u" + random.nextInt(40), 1_000L + i, random.nextInt(6)));
    }
    Collections.shuffle(events, random);
    LastLocationOperations ll = operations(path());
    Map<String, LocationEvent> newest = new HashMap<>();
    int ok = 0;
    int stale = 0;
    for (LocationEvent e : events) {
      LocationEvent before = newest.get(e.userId());
      boolean newer = before == null || e.timestampMs() > before.timestampMs();
      Status status = ll.upsertLastLocation(e);
      assertThat(status).as("%s after %s", e, before).isEqualTo(newer ? Status.OK : LastLocationContract.STALE);
      if (newer) {
        newest.put(e.userId(), e);
        ok++;
      } else {
        stale++;
      }
    }
    assertThat(lkl.countDocuments()).isEqualTo(newest.size());
    newest.forEach((user, e) -> assertThat(stored(user)).as(user).isEqualTo(e));
    assertThat(ok).as("a shuffled stream has both kinds").isBetween(100, 3_900);
    assertThat(stale).isEqualTo(4_000 - ok);
  }

  @Test
  void anInsertThatMeetsAnotherClientsFirstEventReadsAgain() throws Exception {
    KeyRulePath path = path();
    path.beforeInsert = () -> lkl.insertOne(new Document("_id", "u2").append("CellId", 3).append("T", 500L)
        .append("location", LastLocationDocuments.point(2, 48)));
    assertThat(operations(path).upsertLastLocation(event("u2", 1_000, 7))).isEqualTo(Status.OK);
    assertThat(stored("u2")).isEqualTo(event("u2", 1_000, 7));
    assertThat(lkl.countDocuments()).isEqualTo(1);
  }

  @Test
  void aMoveThatMeetsAnotherClientsMoveReadsAgain() throws Exception {
    lkl.insertOne(new Document("_id", "u3").append("CellId", 1).append("T", 100L)
        .append("location", LastLocationDocuments.point(2, 48)));
    KeyRulePath path = path();
    path.beforeUpdateByStoredTime = () -> lkl.updateOne(new Document("_id", "u3"),
        new Document("$set", new Document("CellId", 2).append("T", 200L)));
    assertThat(operations(path).upsertLastLocation(event("u3", 1_000, 7))).isEqualTo(Status.OK);
    assertThat(stored("u3")).isEqualTo(event("u3", 1_000, 7));
  }

  @Test
  void aUserChangedUnderEveryReadIsAnErrorThatSaysSo() {
    lkl.insertOne(new Document("_id", "u4").append("CellId", 1).append("T", 100L)
        .append("location", LastLocationDocuments.point(2, 48)));
    KeyRulePath path = new KeyRulePath(client.getDatabase("ycsb")) {
      private long t = 100;

      @Override
      public UpdateResult updateOne(Op op, String collection, Document filter, Bson update, UpdateOptions options) {
        if (!(filter.get("T") instanceof Document)) {
          t++;  // another client moves the user each time, to an older time than the event's
          lkl.updateOne(new Document("_id", "u4"), new Document("$set", new Document("T", t)));
        }
        return super.updateOne(op, collection, filter, update, options);
      }
    };
    WholeKeyUpsert upsert = new WholeKeyUpsert(path, "lastknownlocation", List.of("CellId"));
    assertThatThrownBy(() -> upsert.upsert(event("u4", 1_000, 7)))
        .hasMessage("the LastKnownLocation of u4 changed under each of 8 reads in a row (another client writing the"
            + " same user?)");
  }
}
