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
 */
public record ServerFacts(ServerVersion version, Kind kind, String replicaSet, List<String> hosts, ServerVersion fcv) {
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
    ServerVersion version = ServerVersion.fromBuildInfo(admin.runCommand(new Document("buildInfo", 1)));
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
    return new ServerFacts(version, kind, setName, hosts, featureCompatibility(admin));
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

  /** "8.0.4 sharded", "7.0.12 replica set rs0", "8.0.4 (FCV 7.0) sharded". */
  public String describe() {
    String compat = fcv == null || (fcv.major() == version.major() && fcv.minor() == version.minor()) ? ""
        : " (FCV " + fcv.major() + "." + fcv.minor() + ")";
    return version + compat + " " + kind.label() + (replicaSet == null ? "" : " " + replicaSet);
  }
}
