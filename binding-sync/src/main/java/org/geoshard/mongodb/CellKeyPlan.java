package org.geoshard.mongodb;

import com.mongodb.client.MongoClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import org.bson.Document;
import org.bson.types.MinKey;
import org.geoshard.geo.cells.CellGrid;
import org.geoshard.geo.cells.CellRanges;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.RestaurantCells;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.harness.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * The ranged S2-cell shard key ({@code mongodb.shardkey=cell:1}, or {@code cell:1,_id:1} where a cell
 * may hold more than a chunk): each restaurant carries {@code cell}, its S2 cell id at
 * {@code geo.cells.level}; preparation splits the key range into one range per shard, balanced by the
 * dataset's restaurants per cell, and places them before the load; every near query carries
 * {@code cell: {$in: [covering]}} ({@code geo.cells.covering}) so that mongos sends it only to the shards
 * that own those cells. Inactive (documents and queries unchanged) for any other key. Immutable.
 */
public final class CellKeyPlan {
  private static final Logger LOG = LoggerFactory.getLogger(CellKeyPlan.class);
  static final String FIELD = "cell";
  static final CellKeyPlan INACTIVE = new CellKeyPlan(null, null, false);

  private final ShardKey key;
  private final CellGrid grid;
  private final boolean covering;

  private CellKeyPlan(ShardKey key, CellGrid grid, boolean covering) {
    this.key = key;
    this.grid = grid;
    this.covering = covering;
  }

  /** The plan for a key: active when the key starts with {@code cell}, ranged. */
  public static CellKeyPlan of(ShardKey key, Properties properties) throws ConfigException {
    if (key == null || !key.parts().get(0).field().equals(FIELD)) {
      return INACTIVE;
    }
    RestaurantCells cells = RestaurantCells.fromProperties(properties);
    return new CellKeyPlan(key, cells.grid(), cells.covering());
  }

  /** One sentence for a key that names {@code cell} in a way the plan cannot serve, else null. */
  static String problem(ShardKey key) {
    if (key == null) {
      return null;
    }
    List<ShardKey.Part> parts = key.parts();
    for (int i = 0; i < parts.size(); i++) {
      if (parts.get(i).field().equals(FIELD) && (i > 0 || parts.get(i).hashed())) {
        return "Property '" + MongoSettings.SHARD_KEY + "' is '" + key + "', but the cell key must be ranged and first"
            + " (cell:1 or cell:1,_id:1), so that each shard owns stretches of the S2 curve.";
      }
    }
    return null;
  }

  public boolean active() {
    return grid != null;
  }

  /** The restaurant's document, with its cell when the plan is active. */
  public Document document(Restaurant r) {
    Document document = RestaurantDocuments.toDocument(r);
    if (active()) {
      document.append(FIELD, grid.cellOf(r.longitude(), r.latitude()));
    }
    return document;
  }

  /** The cells a near query's {@code cell: {$in: [...]}} names, or null when it names none. */
  long[] coveringOf(GeoQuery query) {
    return active() && covering ? grid.covering(query) : null;
  }

  /** The near query, with {@code cell: {$in: [...]}} when the plan is active and wants the covering. */
  public NearQuery near(GeoQuery query, MongoSettings.MaxDistance maxDistance) {
    NearQuery near = NearQuery.of(query, maxDistance);
    long[] cells = coveringOf(query);
    if (cells == null) {
      return near;
    }
    List<Long> in = new ArrayList<>(cells.length);
    for (long cell : cells) {
      in.add(cell);
    }
    Document filter = new Document(near.filter()).append(FIELD, new Document("$in", in));
    return new NearQuery(filter, near.skip(), near.limit());
  }

  /**
   * Splits the key range into one range per shard, balanced by the restaurants of the dataset the
   * properties describe, and moves every chunk of range i that is not on shard i there (shards by name).
   * Idempotent: split points that are already chunk bounds are not split again, and a chunk already on
   * its shard is not moved. Each chunk moves with its own bounds ({@code moveRange} with min and max from
   * 6.0, {@code moveChunk} before it), so preparing again after data, or after the balancer or the
   * auto-splitter cut the ranges, moves what is really there.
   */
  Map<String, Object> place(MongoClient client, ServerFacts facts, String namespace, Properties properties)
      throws DBException {
    List<String> shards = shardNames(client);
    CellRanges ranges = ranges(properties, shards.size());
    Document sharding = CollectionChecks.shardingOf(client, namespace);
    return layOut(new ConflictRetry(AdminCommands.over(client)), facts, namespace, shards, ranges,
        () -> chunks(client, sharding));
  }

  /**
   * The commands of {@link #place}, through {@code admin}: splits where a range starts inside a chunk,
   * then the moves of the chunks the split left off their range's shard ({@code chunks} reads the
   * catalog, before the split and after it).
   */
  Map<String, Object> layOut(ConflictRetry admin, ServerFacts facts, String namespace, List<String> shards,
      CellRanges ranges, Supplier<List<Document>> chunks) throws MongoStartException {
    List<Document> before = chunks.get();
    List<Document> middles = new ArrayList<>();
    for (int i = 1; i < ranges.size(); i++) {
      Document middle = bound(ranges.lowerBound(i));
      if (before.stream().noneMatch(c -> middle.equals(c.get("min", Document.class)))) {
        middles.add(middle);
      }
    }
    split(admin, namespace, middles);
    List<Move> moves = misplaced(chunks.get(), ranges, shards);
    String command = move(admin, facts, namespace, moves);
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("namespace", namespace);
    details.put("key", key.toString());
    details.put("level", grid.level());
    details.put("covering", covering);
    details.put("shards", shards);
    details.put("lowerBounds", ranges.lowerBounds());
    details.put("restaurantsPerShard", ranges.restaurantsPerRange());
    details.put("splits", middles.size());
    details.put("moves", moves.size());
    details.put("command", command);
    // Refusals waited out while a balancer round migrated a chunk of the collection (ConflictRetry).
    details.put("conflictRetries", admin.retries());
    return details;
  }

  /** Splits the collection at each point. */
  static void split(ConflictRetry admin, String namespace, List<Document> middles) throws MongoStartException {
    for (Document middle : middles) {
      admin.run(new Document("split", namespace).append("middle", middle));
    }
  }

  /**
   * Moves each chunk with its own bounds: {@code moveRange} from 6.0 (DOCS-15363), {@code moveChunk}
   * before it; says which command it was.
   */
  static String move(ConflictRetry admin, ServerFacts facts, String namespace, List<Move> moves)
      throws MongoStartException {
    boolean moveRange = facts.rules().hasMoveRange();
    for (Move move : moves) {
      admin.run(moveRange
          ? new Document("moveRange", namespace).append("min", move.min()).append("max", move.max())
              .append("toShard", move.to())
          : new Document("moveChunk", namespace).append("bounds", List.of(move.min(), move.max())).append("to", move.to()));
    }
    return moveRange ? "moveRange" : "moveChunk";
  }

  /**
   * After the load: are the placed ranges still where {@link #place} put them? The balancer (by chunk
   * count before 6.0.3, by data size from it) may have moved chunks of them while the load was measured.
   */
  Map<String, Object> checkPlacement(MongoClient client, String namespace, Properties properties) throws DBException {
    List<String> shards = shardNames(client);
    CellRanges ranges = ranges(properties, shards.size());
    List<Document> chunks = chunks(client, CollectionChecks.shardingOf(client, namespace));
    List<Move> moved = misplaced(chunks, ranges, shards);
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("chunks", chunks.size());
    details.put("chunksOffTheirRange", moved.size());
    if (!moved.isEmpty()) {
      String sentence = moved.size() + " of " + chunks.size() + " chunks of " + namespace + " are no longer on the shard"
          + " their cell range was placed on (moved during the load, by the balancer?): queries of those cells reach"
          + " other shards than planned; see run.json migrations";
      details.put("warning", sentence);
      LOG.warn(sentence);
    }
    return details;
  }

  /** A chunk to move: its bounds and the shard its cell range belongs to. */
  record Move(Document min, Document max, String to) {
  }

  /** The chunks not on the shard of the range their lower bound falls in (range i belongs to shard i). */
  static List<Move> misplaced(List<Document> chunks, CellRanges ranges, List<String> shards) {
    List<Move> moves = new ArrayList<>();
    for (Document chunk : chunks) {
      Document min = chunk.get("min", Document.class);
      String owner = shards.get(min.get(FIELD) instanceof Number cell ? ranges.rangeOf(cell.longValue()) : 0);
      if (!owner.equals(chunk.getString("shard"))) {
        moves.add(new Move(min, chunk.get("max", Document.class), owner));
      }
    }
    return moves;
  }

  private CellRanges ranges(Properties properties, int shards) throws MongoStartException {
    try {
      return CellRanges.balanced(RestaurantCells.counted(properties, grid), shards);
    } catch (ConfigException | IllegalArgumentException e) {
      throw new MongoStartException("Could not split the cell key's range: " + e.getMessage());
    }
  }

  /** The key document of a cell bound: {@code {cell: id}}, and {@code _id: MinKey} for the compound key. */
  Document bound(long cell) {
    Document bound = new Document(FIELD, cell);
    key.parts().stream().skip(1).forEach(p -> bound.append(p.field(), new MinKey()));
    return bound;
  }

  static List<String> shardNames(MongoClient client) {
    List<String> names = new ArrayList<>();
    for (Document shard : client.getDatabase("admin").runCommand(new Document("listShards", 1))
        .getList("shards", Document.class, List.of())) {
      names.add(shard.getString("_id"));
    }
    names.sort(null);
    return names;
  }

  static List<Document> chunks(MongoClient client, Document sharding) {
    // FCV 4.4 catalogs name chunks by ns even where the collection has a uuid (CatalogRules).
    Document match = CatalogRules.chunksByUuid(sharding) ? new Document("uuid", sharding.get("uuid"))
        : new Document("ns", sharding.get("_id"));
    return client.getDatabase("config").getCollection("chunks").find(match).into(new ArrayList<>());
  }
}
