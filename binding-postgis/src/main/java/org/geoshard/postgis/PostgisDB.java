package org.geoshard.postgis;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.Vector;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.harness.api.BatchOutcomes;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.DescribesTopology;
import org.geoshard.harness.api.ExplainsOperations;
import org.geoshard.harness.api.JoinsRun;
import org.geoshard.harness.api.ObservesServers;
import org.geoshard.harness.api.Preflight;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.api.RunContext;
import org.geoshard.harness.api.ServerProbe;
import org.geoshard.harness.api.ServerProcesses;
import org.geoshard.harness.api.StandaloneRun;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.lastlocation.contract.DelegatingLastLocation;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationStream;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * Binding {@code postgis-geo}: the geo workload, the last-location workload and YCSB's key-value
 * operations on PostgreSQL with PostGIS, one JDBC connection per client thread ({@link LiveConnection}).
 * This class only opens the connection and hands each harness interface to the class that holds its
 * logic: {@link PostgisOperations} (what each operation means), {@link PostgisPreparation} (the tables
 * of the declared roles), {@link PostgisTopology} (run.json's topology, the server probe, local
 * processes) and {@link PostgisPreflight}. What the instances of a phase share comes from the phase's
 * {@link RunContext} (under plain YCSB, {@link StandaloneRun}'s).
 */
public final class PostgisDB extends DB
    implements GeoContract, DelegatingLastLocation, Preparable, DescribesTopology, BatchOutcomes, ExplainsOperations,
    ServerProcesses, ObservesServers, Preflight, JoinsRun {
  private RunContext run;
  /** The harness's listener when it came before {@link #init()}; null: nobody listens. */
  private BatchOutcomes.Listener batchOutcomes;
  private LiveConnection live;
  private PostgisOperations operations;
  private PostgisPreparation preparation;
  private PostgisTopology topology;
  private PostgisPreflight preflight;
  private PostgisRunChecks runChecks;

  @Override
  public void joinRun(RunContext context) {
    this.run = context;
  }

  @Override
  public void batchOutcomeListener(BatchOutcomes.Listener listener) {
    this.batchOutcomes = listener;
    if (operations != null) {
      operations.batchOutcomeListener(listener);
    }
  }

  @Override
  public void init() throws DBException {
    PostgisSettings settings;
    CellPartitioning cells;
    LocationStream stream;
    try {
      settings = PostgisSettings.fromProperties(getProperties());
      cells = CellPartitioning.fromProperties(getProperties());
      stream = LocationStream.fromProperties(getProperties());
    } catch (ConfigException e) {
      throw new DBException(e.getMessage(), e);
    }
    RunContext context = run;
    if (context == null) {
      try {
        context = StandaloneRun.context(getProperties());
      } catch (IllegalStateException e) {
        throw new DBException(e.getMessage(), e);
      }
    }
    live = new LiveConnection(() -> Connections.open(settings, cells), settings.maskedUrl());
    ServerQueries sql = new ServerQueries(live);
    operations = new PostgisOperations(settings, cells, live, stream, PostgisOperations.failureLog(context),
        batchOutcomes);
    preparation = new PostgisPreparation(settings, cells, live, stream, context.data(), getProperties());
    topology = new PostgisTopology(settings, cells, sql, context.data());
    runChecks = new PostgisRunChecks(settings, cells, live, context.data());
    preflight = new PostgisPreflight(settings, cells, live, context.data(), runChecks);
    try {
      if (!sql.postgisInstalled()) {
        throw new DBException("PostGIS is not installed in the database of " + settings.maskedUrl()
            + ": run CREATE EXTENSION postgis there (as its owner or a superuser).");
      }
    } catch (SQLException e) {
      live.close();
      throw new DBException("Could not use " + settings.maskedUrl() + ": " + e.getMessage(), e);
    }
  }

  /** Writes the last partial batches ({@link PostgisOperations#finish()}) and closes the connection. */
  @Override
  public void cleanup() throws DBException {
    try {
      if (operations != null) {
        operations.finish();
      }
    } finally {
      if (live != null) {
        live.close();
      }
    }
  }

  @Override
  public Status insertRestaurant(Restaurant restaurant) {
    return operations.insertRestaurant(restaurant);
  }

  @Override
  public Status near(GeoQuery query, List<GeoHit> hits) {
    return operations.near(query, hits);
  }

  @Override
  public LastLocationContract lastLocation() {
    return operations.lastLocation();
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    return operations.read(table, key, fields, result);
  }

  @Override
  public Status scan(String table, String startKey, int count, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return operations.scan(table, startKey, count, fields, result);
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return operations.update(table, key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return operations.insert(table, key, values);
  }

  @Override
  public Status delete(String table, String key) {
    return operations.delete(table, key);
  }

  @Override
  public Optional<QueryExplain> explainLast() throws DBException {
    return operations.explainLast();
  }

  @Override
  public void prepare(Stage stage, Set<DataRole> data, Steps steps) throws DBException {
    preparation.prepare(stage, data, steps);
  }

  @Override
  public Map<String, Object> topology() throws DBException {
    return topology(Set.of(GeoContract.RESTAURANTS));
  }

  @Override
  public Map<String, Object> topology(Set<DataRole> data) throws DBException {
    return topology.topology(data);
  }

  @Override
  public List<ServerProbe> serverProbes() throws DBException {
    return topology.serverProbes();
  }

  @Override
  public List<Long> localServerPids() throws DBException {
    return topology.localServerPids();
  }

  @Override
  public String localNodeName() {
    return topology.localNodeName();
  }

  @Override
  public List<Preflight.Check> preflight(Preflight.Before before) throws DBException {
    return preflight.checks(before);
  }

  /**
   * Refuses a run before its threads start with what {@link PostgisRunChecks} finds (the sentences
   * {@code bin/ycsb preflight} prints): a missing or empty table, a partitioning the table does not
   * have, a missing GiST index (unless {@code postgis.allowSeqScan=true}).
   */
  @Override
  public void checkBeforeRun(Set<DataRole> data) throws DBException {
    List<String> refusals;
    try {
      refusals = runChecks.refusals(data);
    } catch (SQLException e) {
      throw new DBException("Could not check the tables before the run: " + e.getMessage(), e);
    }
    if (!refusals.isEmpty()) {
      throw new DBException(String.join(" ", refusals));
    }
  }
}
