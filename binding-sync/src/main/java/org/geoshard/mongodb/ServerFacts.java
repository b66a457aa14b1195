package org.geoshard.mongodb;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import java.util.List;
import org.bson.Document;

/**
 * What the server behind a URL is: its version and whether it is a standalone mongod, a replica set
 * member or a mongos of a sharded cluster ({@code hello}, falling back to {@code isMaster} for servers
 * and test doubles without {@code hello}).
 *
 * @param replicaSet the replica set's name, or null
 * @param hosts the replica set's members as {@code hello} lists them (empty otherwise)
 * @param fcv the featureCompatibilityVersion, or null when it cannot be read
 * @param product which server answers, from what its {@code buildInfo} says of itself ({@link Product})
 */
public record ServerFacts(ServerVersion version, Kind kind, String replicaSet, List<String> hosts, ServerVersion fcv,
    Product product) {
  /**
   * Which implementation of the wire protocol answers. MongoDB's {@code buildInfo} names its allocator,
   * JavaScript engine and storage engines; FerretDB's adds {@code ferretdbVersion} (and says it is MongoDB
   * 7.0.42); a server with neither is another wire server (e.g. an in-process stand-in), whose version is
   * only what it claims.
   *
   * @param name "MongoDB", "FerretDB" or "another MongoDB wire server"
   * @param ownVersion the server's own version when it is not MongoDB's (FerretDB's), else null
   */
  public record Product(String name, String ownVersion) {
    public static final Product MONGODB = new Product("MongoDB", null);
    public static final Product OTHER = new Product("another MongoDB wire server", null);

    /** From a {@code buildInfo} reply. */
    public static Product fromBuildInfo(Document buildInfo) {
      Object ferret = buildInfo.get("ferretdbVersion");
      if (ferret != null) {
        return new Product("FerretDB", String.valueOf(ferret).replaceFirst("^v", ""));
      }
      boolean mongo = buildInfo.containsKey("allocator") || buildInfo.containsKey("javascriptEngine")
          || buildInfo.containsKey("storageEngines");
      return mongo ? MONGODB : OTHER;
    }

    public boolean isMongoDB() {
      return this.equals(MONGODB);
    }

    /** "MongoDB 7.0.12", "FerretDB 1.24.2 (not MongoDB; it answers as MongoDB 7.0.42)". */
    public String describe(ServerVersion claimed) {
      if (isMongoDB()) {
        return "MongoDB " + claimed;
      }
      return name + (ownVersion == null ? "" : " " + ownVersion) + " (not MongoDB; it answers as MongoDB " + claimed + ")";
    }
  }

  /** The kinds of deployment the binding tells apart. */
  public enum Kind {
    STANDALONE("standalone"), REPLICA_SET("replica set"), SHARDED("sharded");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private static final int COMMAND_NOT_FOUND = 59;

  public ServerFacts {
    hosts = List.copyOf(hosts);
    product = product == null ? Product.MONGODB : product;
  }

  /** Facts of a MongoDB server. */
  public ServerFacts(ServerVersion version, Kind kind, String replicaSet, List<String> hosts, ServerVersion fcv) {
    this(version, kind, replicaSet, hosts, fcv, Product.MONGODB);
  }

  /** Asks the server; throws what the driver throws (unreachable, authentication, ...). */
  public static ServerFacts read(MongoClient client) {
    MongoDatabase admin = client.getDatabase("admin");
    Document hello;
    try {
      hello = admin.runCommand(new Document("hello", 1));
    } catch (MongoCommandException e) {
      if (e.getErrorCode() != COMMAND_NOT_FOUND) {
        throw e;
      }
      hello = admin.runCommand(new Document("isMaster", 1));
    }
    Document buildInfo = admin.runCommand(new Document("buildInfo", 1));
    ServerVersion version = ServerVersion.fromBuildInfo(buildInfo);
    Kind kind;
    String setName = hello.getString("setName");
    if ("isdbgrid".equals(hello.getString("msg"))) {
      kind = Kind.SHARDED;
    } else if (setName != null) {
      kind = Kind.REPLICA_SET;
    } else {
      kind = Kind.STANDALONE;
    }
    List<String> hosts = hello.getList("hosts", String.class, List.of());
    return new ServerFacts(version, kind, setName, hosts, featureCompatibility(admin), Product.fromBuildInfo(buildInfo));
  }

  /**
   * The FCV from {@code admin.system.version} (the way that also works through a mongos, where
   * {@code getParameter} answers with the binary's version or fails), or null when unreadable.
   */
  private static ServerVersion featureCompatibility(MongoDatabase admin) {
    try {
      Document fcv = admin.getCollection("system.version").find(new Document("_id", "featureCompatibilityVersion")).first();
      String version = fcv == null ? null : fcv.getString("version");
      return version == null ? null : ServerVersion.parse(version);
    } catch (RuntimeException e) {
      return null;  // no privilege, or a test double: the binary's version decides
    }
  }

  /** What decides version-gated behaviour: the FCV when known, else the binary's version. */
  public ServerVersion featureVersion() {
    return fcv != null ? fcv : version;
  }

  /** What the bindings do differently on this server's version ({@link VersionRules}). */
  public VersionRules rules() {
    return new VersionRules(this);
  }

  public boolean sharded() {
    return kind == Kind.SHARDED;
  }

  /**
   * The server named by what it says of itself: "MongoDB 8.0.4 sharded", "FerretDB 1.24.2 (not MongoDB;
   * it answers as MongoDB 7.0.42) standalone".
   */
  public String named() {
    String compat = describe().substring(version.toString().length());
    return product.describe(version) + compat;
  }

  /** "8.0.4 sharded", "7.0.12 replica set rs0", "8.0.4 (FCV 7.0) sharded". */
  public String describe() {
    String compat = fcv == null || (fcv.major() == version.major() && fcv.minor() == version.minor()) ? ""
        : " (FCV " + fcv.major() + "." + fcv.minor() + ")";
    return version + compat + " " + kind.label() + (replicaSet == null ? "" : " " + replicaSet);
  }
}
