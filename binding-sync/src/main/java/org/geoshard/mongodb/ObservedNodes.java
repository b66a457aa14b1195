package org.geoshard.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.client.MongoClient;
import com.mongodb.connection.ServerDescription;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.bson.Document;
import org.geoshard.harness.api.ServerProbe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nodes the server sampler reads, from the topology the binding already knows: on a sharded
 * cluster every {@code mongos} the client reaches (and any routers the binding adds), every shard's
 * primary ({@code listShards}) and the config server ({@code getShardMap}); otherwise the one server
 * or replica set of {@code mongodb.url}. Only monitoring commands are used to find them.
 */
final class ObservedNodes {
  private static final Logger LOG = LoggerFactory.getLogger(ObservedNodes.class);

  private ObservedNodes() {
  }

  static List<ServerProbe> probes(MongoClient client, ServerFacts facts, String effectiveUrl, MongoSettings settings,
      List<String> moreRouters) {
    List<ServerProbe> probes = new ArrayList<>();
    try {
      add(probes, client, facts, new ConnectionString(effectiveUrl), settings, moreRouters);
      return probes;
    } catch (RuntimeException e) {
      probes.forEach(ServerProbe::close);
      throw e;
    }
  }

  private static void add(List<ServerProbe> probes, MongoClient client, ServerFacts facts, ConnectionString url,
      MongoSettings settings, List<String> moreRouters) {
    if (!facts.sharded()) {
      List<String> hosts = hosts(client);
      probes.add(ServerStatusProbe.open(hosts.size() == 1 ? hosts.get(0) : facts.replicaSet(), "mongod", hosts,
          facts.replicaSet(), url, settings));
      return;
    }
    Set<String> routers = new LinkedHashSet<>(hosts(client));
    routers.addAll(moreRouters);
    for (String router : routers) {
      probes.add(ServerStatusProbe.open(router, "mongos", List.of(router), null, url, settings));
    }
    Document admin = client.getDatabase("admin").runCommand(new Document("listShards", 1));
    for (Document shard : admin.getList("shards", Document.class, List.of())) {
      Members members = Members.parse(shard.getString("host"));
      probes.add(ServerStatusProbe.open(shard.getString("_id"), "shard-primary", members.hosts(), members.replicaSet(),
          url, settings));
    }
    try {
      Document map = client.getDatabase("admin").runCommand(new Document("getShardMap", 1)).get("map", Document.class);
      String config = map == null ? null : map.getString("config");
      if (config != null) {
        Members members = Members.parse(config);
        probes.add(ServerStatusProbe.open("config", "config", members.hosts(), members.replicaSet(), url, settings));
      }
    } catch (RuntimeException e) {
      // An old server or a user without the privilege: the shards and routers are still sampled.
      LOG.warn("Cannot find the config server to sample (getShardMap: {}); its metrics are left out.", e.getMessage());
    }
  }

  /** The servers the client knows (the routers of a sharded cluster's URL, resolved). */
  private static List<String> hosts(MongoClient client) {
    List<String> hosts = new ArrayList<>();
    for (ServerDescription server : client.getClusterDescription().getServerDescriptions()) {
      hosts.add(server.getAddress().toString());
    }
    return hosts;
  }

  /** A shard's or config server's connection string as listShards gives it: {@code rs/h1:p,h2:p} or {@code h:p}. */
  record Members(String replicaSet, List<String> hosts) {
    static Members parse(String host) {
      int slash = host.indexOf('/');
      String set = slash < 0 ? null : host.substring(0, slash);
      return new Members(set, Arrays.asList(host.substring(slash + 1).split(",")));
    }
  }
}
