package org.geoshard.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoException;
import com.mongodb.client.MongoDatabase;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.harness.api.BatchOutcomes;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.DescribesTopology;
import org.geoshard.harness.api.ExpectedData;
import org.geoshard.harness.api.ExplainsOperations;
import org.geoshard.harness.api.ExplainsOperations.QueryExplain;
import org.geoshard.harness.api.JoinsRun;
import org.geoshard.harness.api.ObservesServers;
import org.geoshard.harness.api.ServerProbe;
import org.geoshard.harness.api.WatchesStages;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.api.Preflight.Before;
import org.geoshard.harness.api.Preflight.Check;
import org.geoshard.harness.api.RunContext;
import org.geoshard.harness.api.Secrets;
import org.geoshard.harness.api.StandaloneRun;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.lastlocation.contract.DelegatingLastLocation;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * What both MongoDB bindings are, once: the YCSB {@code DB}, the geo and last-location contracts (in
 * {@link MongoOperations}), the checks before the start, the final flush and release, the preparation
 * of the collections and the description of the topology (on the sync client of {@code mongodb.url}).
 * A binding adds only its request path: {@code mongodb-geo} the sync driver's, {@code mongodb-async}
 * the reactive driver's with routing.
 *
 * <p>One instance per client thread (YCSB's contract). The instances of a phase share what the phase's
 * {@link RunContext} holds (the clients, {@link SharedClients}; binding-async's routers) and read from it
 * what the workload declares (YCSB's table, the load's range); under plain YCSB, which hands them no
 * context, they use the JVM's ({@link StandaloneRun}).
 */
public abstract class MongoBinding extends DB implements GeoContract, DelegatingLastLocation, Preparable,
    DescribesTopology, BatchOutcomes, ExplainsOperations, ObservesServers, WatchesStages,
    org.geoshard.harness.api.Preflight, JoinsRun {
  private static final Logger LOG = LoggerFactory.getLogger(MongoBinding.class);
  /** The phase this instance joined, or the JVM's (plain YCSB, tests) once asked for. */
  private RunContext context;
  private MongoSettings settings;
  private CellKeyPlan cellKey;
  private MongoLastLocationSettings llSettings;
  private BalancerPolicy balancer;
  private MongoOperations operations;
  private BatchOutcomes.Listener listener;
  /** The sync client of {@code mongodb.ll.lkl.url} (LastKnownLocation on a cluster of its own), or null. */
  private SharedClients.Lease lklLease;
  private MongoSettings lklSettings;

  /** This binding's settings from the properties ({@code mongodb-async} adds its routing). */
  protected abstract MongoSettings configure(Properties properties) throws ConfigException;

  /** Opens (or joins) the shared clients and gives this thread's request path. */
  protected abstract RequestPath connect() throws DBException;

  /** The shared sync client of {@code mongodb.url}: checks, preparation, topology (after {@link #connect()}). */
  protected abstract SharedClients.Lease control();

  /** Lets the shared clients go (once; nothing after it). */
  protected abstract void disconnect() throws DBException;

  /** Where this binding logs its failed operations (one per binding class). */
  protected abstract FailureLog failureLog();

  /** Called by the harness before {@link #init()}: the phase's shared objects and what its workload declares. */
  @Override
  public void joinRun(RunContext context) {
    this.context = context;
  }

  /**
   * The phase this instance joined; without one (plain YCSB, a test making instances itself) the JVM's,
   * with the declaration of the workload the {@code workload} property names.
   */
  protected final RunContext context() {
    if (context == null) {
      context = StandaloneRun.context(getProperties());
    }
    return context;
  }

  /** The clients the phase's instances share. */
  protected final SharedClients sharedClients() {
    return SharedClients.in(context());
  }

  @Override
  public final void init() throws DBException {
    try {
      context();
    } catch (IllegalStateException e) {
      throw new DBException(e.getMessage());  // StandaloneRun: the workload property names no class to be made
    }
    try {
      settings = configure(getProperties());
      cellKey = CellKeyPlan.of(settings.preparation().shardKey(), getProperties());
      llSettings = MongoLastLocationSettings.fromProperties(getProperties());
      balancer = BalancerPolicy.fromProperties(getProperties());
    } catch (ConfigException e) {
      throw new DBException(e.getMessage());
    }
    RequestPath path = connect();
    try {
      if (llSettings.lklUrl() != null) {
        // The pilot's topology: LastKnownLocation on another cluster, reached through a sync client of its own
        // in both bindings (targeted routing applies to mongodb.url's cluster).
        lklSettings = settingsFor(llSettings.lklUrl());
        lklLease = sharedClients().acquire(lklSettings);
        path = new CollectionRoutedPath(path, llSettings.lkl(), new SyncRequestPath(database(lklLease, lklSettings)));
      }
      path.warmUp(settings.collection());
      path.warmUp(context().data().keyValueTable());
      operations = new MongoOperations(settings, cellKey, llSettings, path, control().entry(), failureLog());
      operations.batchOutcomeListener(listener);
    } catch (DBException | RuntimeException e) {
      operations = null;
      releaseLkl();
      disconnect();
      throw e;
    }
  }

  /** These settings with another URL (the LastKnownLocation cluster's). */
  private MongoSettings settingsFor(String url) throws DBException {
    Properties copy = new Properties();
    copy.putAll(getProperties());
    copy.setProperty(MongoSettings.URL, url);
    try {
      return MongoSettings.fromProperties(copy, settings.connection().commandListeners());
    } catch (ConfigException e) {
      throw new DBException(e.getMessage().replace("'" + MongoSettings.URL + "'",
          "'" + MongoLastLocationSettings.LKL_URL + "'"));
    }
  }

  private void releaseLkl() {
    if (lklLease != null) {
      lklLease.close();
      lklLease = null;
    }
  }

  /** Writes what this thread still buffers, then lets the shared clients go. */
  @Override
  public final void cleanup() throws DBException {
    if (operations == null) {
      return;
    }
    List<String> failed;
    try {
      failed = operations.flush();
    } finally {
      operations = null;
      releaseLkl();
      disconnect();
    }
    if (!failed.isEmpty()) {
      throw new DBException("The final insertMany failed for " + String.join(", ", failed) + " (see the log above).");
    }
  }

  @Override
  public void batchOutcomeListener(BatchOutcomes.Listener listener) {
    this.listener = listener;
    if (operations != null) {
      operations.batchOutcomeListener(listener);
    }
  }

  /** The settings in use (after {@link #init()}). */
  protected MongoSettings mongoSettings() {
    return settings;
  }

  /** The database of {@code mongodb.url} with the binding's write concern and read preference. */
  protected static MongoDatabase database(SharedClients.Lease lease, MongoSettings settings) {
    return ClientOptions.database(lease.client(), settings);
  }

  // ---- preparation and topology, on the sync client of mongodb.url ----

  /**
   * Prepares the collections of the roles the workload declares, and no other: the location stream's,
   * the restaurants', YCSB's key-value collection. A drop removes only those.
   */
  @Override
  public void prepare(Stage stage, Set<DataRole> data, Steps given) throws DBException {
    Steps steps = Failures.sayingTheServersAnswer(given, null);  // these steps' names say their collection
    SharedClients.Lease lease = control();
    ClusterPreparation cluster = new ClusterPreparation(lease.client(), lease.facts(), settings);
    Properties p = getProperties();
    if (data.contains(DataRole.KEY_VALUE)) {
      cluster.prepareKeyValue(stage, steps, context().data().keyValueTable());
    }
    if (data.contains(LastLocationContract.HISTORY) || data.contains(LastLocationContract.LAST_KNOWN)) {
      long clockStart;
      try {
        clockStart = LocationStream.fromProperties(p).clockStartMs();
      } catch (ConfigException e) {
        throw new DBException(e.getMessage());
      }
      if (llSettings.keepsLkl()) {
        refuseAnLklKeyTheServerCannotUpsert();
        if (stage == Stage.BEFORE_LOAD) {
          sayHowTheLklKeyIsWritten();
        }
      }
      if (lklLease == null) {
        new LastLocationPreparation(cluster, database(lease, settings), llSettings, clockStart, settings.preparation().drop())
            .prepare(stage, steps);
      } else {
        new LastLocationPreparation(cluster, database(lease, settings),
            new ClusterPreparation(lklLease.client(), lklLease.facts(), lklSettings), database(lklLease, lklSettings),
            lklSettings.connection().maskedUrl(), llSettings, clockStart, settings.preparation().drop()).prepare(stage, steps);
      }
    }
    if (data.contains(GeoContract.RESTAURANTS)) {
      // A load (not `bin/ycsb prepare`, which leaves the phase unset) checks its records first.
      boolean load = Boolean.FALSE.equals(settings.doTransactions());
      Steps onRestaurants = Failures.sayingTheServersAnswer(given, settings.namespace());
      cluster.prepare(stage, onRestaurants, load ? LoadRange.of(context().data()) : null);
      if (stage == Stage.BEFORE_LOAD && cellKey.active()) {
        steps.step("place cell ranges", () -> cellKey.place(lease.client(), lease.facts(), settings.namespace(), p));
      }
      if (stage == Stage.AFTER_LOAD && cellKey.active() && lease.facts().sharded()) {
        steps.step("check cell ranges", () -> cellKey.checkPlacement(lease.client(), settings.namespace(), p));
      }
    }
  }

  /**
   * A run of the restaurants checks their collection and its 2dsphere index once, before any thread
   * starts; a run of the location stream checks that its LastKnownLocation key can be upserted.
   */
  @Override
  public void checkBeforeRun(Set<DataRole> data) throws DBException {
    List<String> refusals = runRefusals(data);
    if (!refusals.isEmpty()) {
      throw new MongoStartException(String.join(" ", refusals));
    }
    if (data.contains(GeoContract.RESTAURANTS)) {
      operations.checkBeforeStart(true);
      // The router's own answer replaces the version table's guess where it gives one.
      Check routed = RouterTargeting.check(control().client(), control().facts(), settings, cellKey, getProperties());
      String untargeted = untargetedCellKey(control().facts());
      RouterTargeting.log(routed);
      if (!RouterTargeting.answered(routed) && untargeted != null) {
        LOG.warn(untargeted);
      }
    }
    if (data.contains(LastLocationContract.LAST_KNOWN) && llSettings.keepsLkl()) {
      refuseAnLklKeyTheServerCannotUpsert();
      sayHowTheLklKeyIsWritten();
    }
  }

  /**
   * What a run of the declared data refuses before its threads start, each in one sentence: the geo
   * collection's checks ({@link CollectionChecks}: sharding, the collection, its 2dsphere index), and a
   * collection that holds nothing when the run reads loaded data. {@code bin/ycsb preflight} prints the
   * same sentences: one source for both. (The LastKnownLocation key's problem has a check of its own.)
   */
  private List<String> runRefusals(Set<DataRole> data) {
    SharedClients.Lease lease = control();
    List<String> refusals = new java.util.ArrayList<>();
    boolean onlyInserts = context().data().expected().runOnlyInserts();
    try {
      if (data.contains(GeoContract.RESTAURANTS)) {
        String problem = CollectionChecks.problem(lease.client(), lease.facts(), settings, true);
        if (problem != null) {
          refusals.add(Secrets.maskText(problem));
        } else if (!onlyInserts && empty(lease, settings.collection())) {
          refusals.add(emptySentence(settings.collection()));
        }
      }
      if (data.contains(DataRole.KEY_VALUE) && !onlyInserts && empty(lease, context().data().keyValueTable())) {
        refusals.add(emptySentence(context().data().keyValueTable()));
      }
      // The location stream's readers ask History and (unless insert-only) every user's LastKnownLocation.
      if (data.contains(LastLocationContract.HISTORY) && !onlyInserts && lastLocationCollections().historyEmpty()) {
        refusals.add(ExpectedData.emptyBeforeRun(lastLocationCollections().historyPlace()));
      }
      if (readsLkl(data) && !onlyInserts && lastLocationCollections().lklEmpty()) {
        refusals.add(ExpectedData.emptyBeforeRun(lastLocationCollections().lklPlace()));
      }
    } catch (MongoException e) {
      // Not knowing is not a refusal: the run's own checks say so and go on.
      LOG.debug("The checks before the run could not read {}", settings.namespace(), e);
    }
    return refusals;
  }

  /** LastKnownLocation is kept and read (the scenario counts it: not the insert-only tables). */
  private boolean readsLkl(Set<DataRole> data) {
    return data.contains(LastLocationContract.LAST_KNOWN)
        && context().data().expected().of(LastLocationContract.LAST_KNOWN) != null;
  }

  /** History on {@code mongodb.url}'s cluster, LastKnownLocation on {@code mongodb.ll.lkl.url}'s when given. */
  private LastLocationCollections lastLocationCollections() {
    SharedClients.Lease lease = control();
    LastLocationCollections.Cluster history = new LastLocationCollections.Cluster(lease.client(),
        settings.connection().database(), settings.connection().maskedUrl());
    LastLocationCollections.Cluster lkl = lklLease == null ? history : new LastLocationCollections.Cluster(
        lklLease.client(), lklSettings.connection().database(), lklSettings.connection().maskedUrl());
    return new LastLocationCollections(llSettings, history, lkl);
  }

  private boolean empty(SharedClients.Lease lease, String collection) {
    return database(lease, settings).getCollection(collection).find().limit(1).first() == null;
  }

  private String emptySentence(String collection) {
    return ExpectedData.emptyBeforeRun("Collection " + settings.connection().database() + "." + collection + " at "
        + settings.connection().maskedUrl());
  }

  /** A sentence when the cell key is in use on a router that may not target near queries by it, else null. */
  private String untargetedCellKey(ServerFacts facts) {
    if (!cellKey.active() || !facts.sharded() || facts.rules().nearTargeting() == VersionRules.NearTargeting.TARGETED) {
      return null;
    }
    return "mongodb.shardkey is the cell key, but its near queries may not be targeted by it ("
        + facts.rules().nearTargetingSaid() + "; binding-sync/README.md, MongoDB versions).";
  }

  private void refuseAnLklKeyTheServerCannotUpsert() throws MongoStartException {
    String problem = lklKeyProblem();
    if (problem != null) {
      throw new MongoStartException(problem);
    }
  }

  private String lklKeyProblem() {
    ConnectionString url = (lklSettings != null ? lklSettings : settings).connection().connectionString();
    return llSettings.lklKeyProblem(lklFacts(), url == null ? null : url.getRetryWritesValue());
  }

  /** Says what {@link MongoLastLocationSettings#lklKeyNote} says, when the key goes beyond _id. */
  private void sayHowTheLklKeyIsWritten() {
    String note = llSettings.lklKeyNote(lklFacts());
    if (note != null) {
      LOG.info("Last-Known-Location upsert: {}", note);
    }
  }

  /** The cluster LastKnownLocation lives on: {@code mongodb.ll.lkl.url}'s, else {@code mongodb.url}'s. */
  private ServerFacts lklFacts() {
    return lklLease != null ? lklLease.facts() : control().facts();
  }

  @Override
  public final Map<String, Object> topology() throws DBException {
    return topology(Set.of(GeoContract.RESTAURANTS));
  }

  /**
   * The deployment with the collection of the data the workload declares: the restaurants, YCSB's
   * key-value collection ({@code table}), or the location stream's History.
   */
  @Override
  public Map<String, Object> topology(Set<DataRole> data) throws DBException {
    String collection = data.contains(GeoContract.RESTAURANTS) || data.isEmpty() ? settings.collection()
        : data.contains(DataRole.KEY_VALUE) ? context().data().keyValueTable()
        : llSettings.history();
    SharedClients.Lease lease = control();
    try {
      Map<String, Object> out = new java.util.LinkedHashMap<>(TopologyReader.describe(lease.client(), lease.facts(),
          settings, collection, sharedClients().counters(settings)));
      // The pool the client threads shared: a maximum measured beyond it would be the pool's (issue 18).
      out.put("connectionPool", settings.connection().poolDescription());
      out.put("versionRules", lease.facts().rules().rows(cellKey.active(), llSettings.lklKey() != null));
      String untargeted = untargetedCellKey(lease.facts());
      if (untargeted != null) {
        out.put("warnings", List.of(untargeted));
      }
      return out;
    } catch (MongoException e) {
      throw new DBException(Failures.describe(e, settings, lease.entry().effectiveUrl,
          lease.client().getClusterDescription()));
    }
  }

  /** What {@code bin/ycsb preflight} prints for this binding ({@link MongoPreflight}). */
  @Override
  public List<Check> preflight(Before before) throws DBException {
    SharedClients.Lease lease = control();
    DataDeclaration declared = context().data();
    Map<String, Object> topology = topology(declared.roles());
    // The collection topology describes (the restaurants or YCSB's table), or the location stream's: each
    // against the scenario's dataset. An empty one before a run that reads it is said by the run's refusal.
    DataRole counted = declared.declares(GeoContract.RESTAURANTS) ? GeoContract.RESTAURANTS
        : declared.declares(DataRole.KEY_VALUE) ? DataRole.KEY_VALUE : null;
    boolean refusedIfEmpty = before == Before.RUN && !declared.expected().runOnlyInserts();
    List<Check> counts = new java.util.ArrayList<>();
    if (counted != null && topology.get("documents") instanceof Number n && !(n.longValue() == 0 && refusedIfEmpty)) {
      counts.add(declared.expected().countCheck("collection", String.valueOf(topology.get("namespace")), counted,
          "documents", n.longValue(), before));
    }
    if (counted == null && declared.declares(LastLocationContract.HISTORY)) {
      counts.addAll(lastLocationCounts(declared, before, refusedIfEmpty));
    }
    Boolean geoIndex = null;
    if (declared.declares(GeoContract.RESTAURANTS)) {
      try {
        geoIndex = CollectionChecks.hasGeoIndex(database(lease, settings).getCollection(settings.collection())
            .listIndexes().into(new java.util.ArrayList<>()));
      } catch (MongoException e) {
        LOG.debug("indexes of {} unreadable", settings.namespace(), e);
      }
    }
    List<String> refusals = before == Before.RUN ? runRefusals(declared.roles()) : List.of();
    List<Check> checks = new java.util.ArrayList<>(MongoPreflight.checks(lease.client(), lease.facts(), settings,
        topology, cellKey.active(), lklKeyProblem(), counts, refusals, geoIndex));
    String lklNote = declared.declares(LastLocationContract.LAST_KNOWN) && llSettings.keepsLkl()
        ? llSettings.lklKeyNote(lklFacts()) : null;
    if (lklNote != null) {
      checks.add(Check.ok("Last-Known-Location upsert", lklNote));
    }
    if (declared.declares(GeoContract.RESTAURANTS)) {
      Check routed = RouterTargeting.check(lease.client(), lease.facts(), settings, cellKey, getProperties());
      if (routed != null) {
        checks.add(routed);
      }
    }
    return checks;
  }

  /**
   * History (every collection of its split) and, when the scenario keeps it, LastKnownLocation, each
   * against what a complete load writes (a lower bound: the stream's runs add to both); none when they
   * cannot be read (the topology's line then says what it read).
   */
  private List<Check> lastLocationCounts(DataDeclaration declared, Before before, boolean refusedIfEmpty) {
    List<Check> counts = new java.util.ArrayList<>();
    try {
      LastLocationCollections ll = lastLocationCollections();
      List<String> histories = ll.histories();
      long history = ll.historyDocuments(histories);
      if (!(history == 0 && refusedIfEmpty)) {
        counts.add(declared.expected().countCheck("collection", ll.historyName(histories), LastLocationContract.HISTORY,
            "documents", history, before));
      }
      if (readsLkl(declared.roles())) {
        long lkl = ll.lklDocuments();
        if (!(lkl == 0 && refusedIfEmpty)) {
          counts.add(declared.expected().countCheck("collection", ll.lklName(), LastLocationContract.LAST_KNOWN,
              "documents", lkl, before));
        }
      }
    } catch (MongoException e) {
      LOG.debug("The location stream's collections could not be counted", e);
    }
    return counts;
  }

  /**
   * The balancer around the phase ({@code mongodb.balancer}) and the migrations committed in each stage,
   * on a client of its own; none for a deployment that is not sharded.
   */
  @Override
  public StageWatch stageWatch() {
    SharedClients.Lease lease = control();
    return lease.facts().sharded() ? BalancerWatch.open(lease.entry().effectiveUrl, balancer,
        settings.connection().maskedUrl(), SaidOnce.in(context())) : null;
  }

  /** One probe per node, each on a client of its own (see {@link ObservedNodes}). */
  @Override
  public List<ServerProbe> serverProbes() throws DBException {
    SharedClients.Lease lease = control();
    try {
      return ObservedNodes.probes(lease.client(), lease.facts(), lease.entry().effectiveUrl, settings, moreRouters());
    } catch (MongoException e) {
      throw new DBException(Failures.describe(e, settings, lease.entry().effectiveUrl,
          lease.client().getClusterDescription()));
    }
  }

  /** Routers the binding uses beyond those of {@code mongodb.url} ({@code host:port}), sampled too. */
  protected List<String> moreRouters() {
    return List.of();
  }

  // ---- the contracts: this thread's operations ----

  @Override
  public LastLocationContract lastLocation() {
    return operations.lastLocation();
  }

  /** The last query this thread sent, explained through {@code mongodb.url} (see {@link MongoExplain}). */
  @Override
  public Optional<QueryExplain> explainLast() throws DBException {
    return operations == null ? Optional.empty() : operations.explainLast();
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
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return operations.insert(table, key, values);
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    return operations.read(table, key, fields, result);
  }

  @Override
  public Status scan(String table, String startKey, int recordCount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return operations.scan(table, startKey, recordCount, fields, result);
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return operations.update(table, key, values);
  }

  @Override
  public Status delete(String table, String key) {
    return operations.delete(table, key);
  }
}
