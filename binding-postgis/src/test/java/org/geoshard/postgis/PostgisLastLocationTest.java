package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.lastlocation.LastLocationWorkload;
import org.geoshard.lastlocation.SplitScenario;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DBException;
import site.ycsb.Status;

/** The last-location contract on the real PostGIS server of bin/postgis; skipped when it is not running. */
class PostgisLastLocationTest {
  @TempDir
  Path dir;

  private static PostgisDB open(String... pairs) throws DBException {
    Properties p = LocalPostgis.properties("t_ll_restaurants");
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    PostgisDB db = new PostgisDB();
    db.setProperties(p);
    db.init();
    return db;
  }

  private static void prepare(PostgisDB db) throws DBException {
    db.prepare(Preparable.Stage.BEFORE_LOAD,
        java.util.Set.of(org.geoshard.lastlocation.contract.LastLocationContract.HISTORY,
            org.geoshard.lastlocation.contract.LastLocationContract.LAST_KNOWN), (name, work) -> {
      try {
        work.run();
      } catch (Exception e) {
        throw new DBException(e);
      }
    });
  }


  @Test
  void onlyNewerEventsReplaceTheLastKnownLocation() throws Exception {
    PostgisDB db = open("ll.history.batchsize", "1");
    try {
      prepare(db);
      assertThat(db.upsertLastLocation(SplitScenario.event("350000000000006", 1000, 1))).isEqualTo(Status.OK);
      assertThat(db.upsertLastLocation(SplitScenario.event("350000000000006", 2000, 2))).isEqualTo(Status.OK);
      assertThat(db.upsertLastLocation(SplitScenario.event("350000000000006", 1500, 3))).isEqualTo(LastLocationContract.STALE);
      assertThat(db.upsertLastLocation(SplitScenario.event("350000000000006", 2000, 4))).isEqualTo(LastLocationContract.STALE);
      List<LocationEvent> out = new ArrayList<>();
      assertThat(db.readLastLocation("350000000000006", out)).isEqualTo(Status.OK);
      assertThat(out).singleElement().satisfies(e -> {
        assertThat(e.timestampMs()).isEqualTo(2000);
        assertThat(e.cellId()).isEqualTo(2);
      });
      assertThat(db.readLastLocation("359999999999999", out)).isEqualTo(Status.OK);
      assertThat(out).isEmpty();
      assertThat(db.usersNear(20.002, 50.002, 500, 10, out)).isEqualTo(Status.OK);
      assertThat(out).extracting(LocationEvent::userId).containsExactly("350000000000006");
    } finally {
      db.cleanup();
    }
  }

  private static List<List<LocationEvent>> writeAndQuery(String split, List<LocationEvent> events) throws Exception {
    PostgisDB db = open("ll.history.split", split, "ll.history.batchsize", "50");
    List<List<LocationEvent>> answers = new ArrayList<>();
    try {
      prepare(db);
      for (LocationEvent e : events) {
        db.appendHistory(e);
      }
    } finally {
      db.cleanup();
    }
    db = open("ll.history.split", split);
    try {
      answers.addAll(SplitScenario.ranges(db, 200, 20));
    } finally {
      db.cleanup();
    }
    return answers;
  }

  @Test
  void aTimeSplitHistoryAnswersRangesAsTheUnsplitOne() throws Exception {
    LocalPostgis.require();
    // Six days across a month's end, 20 users.
    List<LocationEvent> events = SplitScenario.events(3000, 20, 172_800L);
    List<List<LocationEvent>> unsplit = writeAndQuery("none", events);
    List<List<LocationEvent>> daily = writeAndQuery("day", events);
    List<List<LocationEvent>> monthly = writeAndQuery("month", events);
    assertThat(daily).isEqualTo(unsplit);
    assertThat(monthly).isEqualTo(unsplit);
    assertThat(unsplit.stream().mapToInt(List::size).sum()).isGreaterThan(1000);
    try (Connection c = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_inherits WHERE inhparent = 'll_history'::regclass")) {
      rs.next();
      assertThat(rs.getInt(1)).as("monthly partitions: January and February").isEqualTo(2);
    }
  }

  @Test
  void afterAnyInterleavingTheLastKnownLocationIsEachUsersNewestEvent() throws Exception {
    Properties p = LocalPostgis.properties("t_ll_restaurants");
    p.setProperty("workload", LastLocationWorkload.class.getName());
    p.setProperty("geo.cities", "");
    p.setProperty("ll.users", "300");
    p.setProperty("ll.cells", "200");
    p.setProperty("ll.writers", "3");
    p.setProperty("ll.outoforder", "0.2");
    p.setProperty("ll.history.batchsize", "7");
    p.setProperty("ll.history.peruser", "2");
    p.setProperty("ll.insert.rate", "1500");
    p.setProperty("threadcount", "2");
    p.setProperty("operationcount", "0");
    p.setProperty("results.dir", dir.resolve("load").toString());
    // The load is not limited in time: on a busy machine a time limit could cut it short.
    RunResult load = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "ll"), p,
        new Binding("postgis-geo", PostgisDB.class), dir).execute();
    assertThat(load.hasFailures()).isFalse();
    assertThat(load.stopReason()).isEqualTo(StopReason.COMPLETED);
    p.setProperty("maxexecutiontime", "3");
    p.setProperty("results.dir", dir.resolve("run").toString());
    p.setProperty(PostgisSettings.DROP, "false");
    RunResult run = new Runner(RunSettings.fromProperties(Phase.RUN, p, "ll"), p,
        new Binding("postgis-geo", PostgisDB.class), dir).execute();
    assertThat(run.errors()).isZero();
    long appended = run.perOperation().get("HISTORY_INSERT").count();
    long stale = run.perOperation().get("LKL_STALE").count();
    // 4,500 offered; a busy machine may write far fewer: the semantics are checked on whatever was written.
    assertThat(appended).isPositive();
    // 20% late: within 5 points or five binomial standard deviations, however many events a busy machine made.
    double margin = Math.max(0.05 * appended, 5 * Math.sqrt(appended * 0.2 * 0.8));
    assertThat((double) stale).isBetween(appended * 0.2 - margin, appended * 0.2 + margin);
    assertThat(run.perOperation().get("LKL_UPSERT").count() + stale).isEqualTo(appended);

    try (Connection c = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
         Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM ll_history")) {
        rs.next();
        assertThat(rs.getLong(1)).as("History holds every event once").isEqualTo(300 * 2 + appended);
      }
      Map<String, long[]> newest = new HashMap<>();
      try (ResultSet rs = s.executeQuery("SELECT DISTINCT ON (user_id) user_id, ts, cell_id FROM ll_history"
          + " ORDER BY user_id, ts DESC")) {
        while (rs.next()) {
          newest.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3)});
        }
      }
      int users = 0;
      try (ResultSet rs = s.executeQuery("SELECT user_id, ts, cell_id FROM ll_lkl")) {
        while (rs.next()) {
          users++;
          long[] expected = newest.get(rs.getString(1));
          assertThat(rs.getLong(2)).as("newest timestamp of %s", rs.getString(1)).isEqualTo(expected[0]);
          assertThat(rs.getLong(3)).as("cell of the newest event of %s", rs.getString(1)).isEqualTo(expected[1]);
        }
      }
      assertThat(users).isEqualTo(300);
    }
  }

  private static boolean lklIndexExists() throws Exception {
    try (Connection c = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
         Statement st = c.createStatement();
         ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_indexes WHERE indexname = '"
             + PostgisLastLocation.LKL_INDEX + "'")) {
      rs.next();
      return rs.getLong(1) > 0;
    }
  }

  @Test
  void theLklGistIndexIsBuiltOnlyWhenNearQueriesAreInTheMix() throws Exception {
    Map<String, Object> created = new HashMap<>();
    PostgisDB db = open("workload", LastLocationWorkload.class.getName());
    try {
      db.prepare(Preparable.Stage.BEFORE_LOAD,
          java.util.Set.of(org.geoshard.lastlocation.contract.LastLocationContract.HISTORY,
              org.geoshard.lastlocation.contract.LastLocationContract.LAST_KNOWN), (name, work) -> {
        try {
          Map<String, Object> details = work.run();
          if (name.equals("create tables")) {
            created.putAll(details);
          }
        } catch (Exception e) {
          throw new DBException(e);
        }
      });
    } finally {
      db.cleanup();
    }
    assertThat(lklIndexExists()).isFalse();
    assertThat(created).containsEntry("lklIndex", "none: no LKL_NEAR in the mix (ll.read.proportion.near=0)");

    db = open("workload", LastLocationWorkload.class.getName(), "ll.read.proportion.lkl", "0.8",
        "ll.read.proportion.near", "0.1");
    try {
      prepare(db);
    } finally {
      db.cleanup();
    }
    assertThat(lklIndexExists()).isTrue();
  }
}
