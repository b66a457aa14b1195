package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.FailureLog;
import org.geoshard.harness.api.SharedObjects;
import org.geoshard.lastlocation.contract.LocationStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

class PostgisOperationsTest {
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(PostgisOperationsTest.class);
  private final List<LiveConnection> opened = new ArrayList<>();

  @BeforeEach
  void listen() {
    logged.start();
    logger.addAppender(logged);
  }

  @AfterEach
  void close() {
    logger.detachAppender(logged);
    opened.forEach(LiveConnection::close);
  }

  private List<String> failureLines() {
    return logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  private PostgisOperations operations(Properties p, org.geoshard.harness.api.BatchOutcomes.Listener listener)
      throws Exception {
    PostgisSettings settings = PostgisSettings.fromProperties(p);
    LiveConnection live = new LiveConnection(() -> Connections.open(settings), settings.maskedUrl());
    opened.add(live);
    return new PostgisOperations(settings, CellPartitioning.NONE, live, LocationStream.fromProperties(p),
        new FailureLog(logger), listener);
  }

  private static Map<String, ByteIterator> fields(String... pairs) {
    Map<String, ByteIterator> values = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      values.put(pairs[i], new StringByteIterator(pairs[i + 1]));
    }
    return values;
  }

  private static Map<String, String> strings(Map<String, ByteIterator> values) {
    Map<String, String> out = new HashMap<>();
    values.forEach((name, value) -> out.put(name, value.toString()));
    return out;
  }

  @Test
  void aYcsbTableNameMustBeAPlainSqlName() {
    assertThat(PostgisOperations.checked("usertable_2")).isEqualTo("usertable_2");
    assertThatThrownBy(() -> PostgisOperations.checked("usertable; DROP TABLE x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("YCSB table name 'usertable; DROP TABLE x' is not a plain SQL name.");
    assertThatThrownBy(() -> PostgisOperations.checked("1table")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theFailureLogIsThePhasesOneObject() {
    try (SharedObjects phase = new SharedObjects(DataDeclaration.keyValue());
         SharedObjects next = new SharedObjects(DataDeclaration.keyValue())) {
      FailureLog log = PostgisOperations.failureLog(phase);
      assertThat(PostgisOperations.failureLog(phase)).isSameAs(log);
      assertThat(PostgisOperations.failureLog(next)).isNotSameAs(log);
    }
  }

  @Test
  void theKeyValueOperationsKeepOneJsonRowPerKey() throws Exception {
    Properties p = LocalPostgis.properties("t_ops");
    PostgisOperations ops = operations(p, null);
    PostgisSettings settings = PostgisSettings.fromProperties(p);
    try (LiveConnection live = new LiveConnection(() -> Connections.open(settings), settings.maskedUrl())) {
      ServerQueries sql = new ServerQueries(live);
      sql.execute("DROP TABLE IF EXISTS t_ops_kv");
      sql.execute(Schema.createKeyValue("t_ops_kv"));
    }
    assertThat(ops.insert("t_ops_kv", "user1", fields("a", "1", "b", "2"))).isEqualTo(Status.OK);
    assertThat(ops.insert("t_ops_kv", "user2", fields("a", "3"))).isEqualTo(Status.OK);
    Map<String, ByteIterator> read = new HashMap<>();
    assertThat(ops.read("t_ops_kv", "user1", null, read)).isEqualTo(Status.OK);
    assertThat(strings(read)).isEqualTo(Map.of("a", "1", "b", "2"));
    assertThat(ops.update("t_ops_kv", "user1", fields("b", "9"))).isEqualTo(Status.OK);
    read.clear();
    assertThat(ops.read("t_ops_kv", "user1", Set.of("b"), read)).isEqualTo(Status.OK);
    assertThat(strings(read)).isEqualTo(Map.of("b", "9"));
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertThat(ops.scan("t_ops_kv", "user1", 5, Set.of("a"), rows)).isEqualTo(Status.OK);
    assertThat(rows).extracting(PostgisOperationsTest::strings).containsExactly(Map.of("a", "1"), Map.of("a", "3"));
    assertThat(ops.delete("t_ops_kv", "user2")).isEqualTo(Status.OK);
    assertThat(ops.delete("t_ops_kv", "user2")).isEqualTo(Status.NOT_FOUND);
    assertThat(ops.update("t_ops_kv", "user2", fields("a", "4"))).isEqualTo(Status.NOT_FOUND);
    assertThat(ops.read("t_ops_kv", "user2", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
    assertThat(failureLines()).isEmpty();

    // A duplicate key is the operation's error, said in the database's words on the failure log given.
    assertThat(ops.insert("t_ops_kv", "user1", fields("a", "5"))).isEqualTo(Status.ERROR);
    assertThat(failureLines()).singleElement().asString().startsWith("write of user1 failed: ")
        .contains("duplicate key");
    ops.finish();
  }

  private static Restaurant restaurant(long id) {
    return new Restaurant(id, "R " + id, "Town", "Vegan", 2000, 3, 10, "$", false, 2.35, 48.85);
  }

  @Test
  void aLastBatchThatCannotBeWrittenFailsTheFinishOnlyWhenNobodyListens() throws Exception {
    Properties p = LocalPostgis.properties("t_ops_absent");
    p.setProperty("batchsize", "10");
    PostgisOperations alone = operations(p, null);
    assertThat(alone.insertRestaurant(restaurant(1))).isEqualTo(Status.BATCHED_OK);
    assertThatThrownBy(alone::finish).isInstanceOf(DBException.class)
        .hasMessage("The last batch of restaurants could not be written to t_ops_absent.");
    assertThat(failureLines()).singleElement().asString().startsWith("COPY of 1 restaurants into t_ops_absent failed: ");

    List<String> settled = new ArrayList<>();
    PostgisOperations heard = operations(p, (operation, ok, failed) -> settled.add(operation + " " + ok + "/" + failed));
    heard.insertRestaurant(restaurant(1));
    heard.insertRestaurant(restaurant(2));
    heard.finish();
    assertThat(settled).containsExactly("INSERT 0/2");
  }

  @Test
  void aListenerGivenLaterHearsTheRestaurantBatches() throws Exception {
    Properties p = LocalPostgis.properties("t_ops_absent");
    p.setProperty("batchsize", "2");
    PostgisOperations ops = operations(p, null);
    List<String> settled = new ArrayList<>();
    ops.batchOutcomeListener((operation, ok, failed) -> settled.add(operation + " " + ok + "/" + failed));
    assertThat(ops.insertRestaurant(restaurant(1))).isEqualTo(Status.BATCHED_OK);
    // The record that fills the batch answers its own outcome; the buffered one is settled with the batch.
    assertThat(ops.insertRestaurant(restaurant(2))).isEqualTo(Status.ERROR);
    assertThat(settled).containsExactly("INSERT 0/1");
    ops.finish();  // nothing left, and a listener hears the rest: no failure of its own
  }

  @Test
  void nothingToExplainBeforeTheFirstNearQuery() throws Exception {
    assertThat(operations(LocalPostgis.properties("t_ops"), null).explainLast()).isEmpty();
  }
}
