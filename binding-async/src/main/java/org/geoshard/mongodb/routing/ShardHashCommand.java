package org.geoshard.mongodb.routing;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonInvalidOperationException;
import org.bson.BsonValue;
import org.bson.json.JsonMode;
import org.bson.json.JsonParseException;
import org.bson.json.JsonWriterSettings;
import org.geoshard.harness.cli.ExitCodes;
import org.geoshard.harness.cli.GeoshardCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/ycsb shard-hash '<value>'}: the hashed shard key value of a value given as MongoDB
 * extended JSON (canonical, relaxed or shell form), the number mongosh's
 * {@code convertShardKeyToHashed(value)} prints and a hashed key's chunk bounds in
 * {@code config.chunks} are compared with. Lets users predict which chunk, and so which shard, a key
 * lands on.
 */
@Command(name = "shard-hash", mixinStandardHelpOptions = true, sortOptions = false,
    header = "Prints MongoDB's hashed shard key value of a value (as mongosh's convertShardKeyToHashed).",
    description = {"VALUE is MongoDB extended JSON: 42, 42.9, '\"abc\"', '{\"$oid\": \"...\"}', 'ObjectId(\"...\")',",
        "'{\"$numberLong\": \"42\"}', '{\"a\": 1}', '[1, 2]', null, ... Numbers hash as 64-bit integers after truncation,",
        "so 42, 42.9 and NumberLong(42) hash alike. Prints one signed 64-bit number per value.", ""})
public final class ShardHashCommand implements GeoshardCommand {
  @Parameters(arity = "1..*", paramLabel = "VALUE", description = "A value in MongoDB extended JSON.")
  List<String> values = new ArrayList<>();

  @Option(names = "--json",
      description = "Print {\"value\": <value>, \"hashed\": {\"$numberLong\": ...}} (canonical extended JSON) per value instead.")
  boolean json;

  private final PrintStream out;
  private final PrintStream err;

  public ShardHashCommand() {
    this(System.out, System.err);
  }

  ShardHashCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() {
    List<BsonValue> parsed = new ArrayList<>();
    for (String text : values) {
      try {
        parsed.add(parse(text));
      } catch (IllegalArgumentException e) {
        err.println("shard-hash: " + e.getMessage());
        return ExitCodes.USAGE;
      }
    }
    for (BsonValue value : parsed) {
      long hash = ShardKeyHash.hash(value);
      if (json) {
        out.println(new BsonDocument("value", value).append("hashed", new org.bson.BsonInt64(hash))
            .toJson(JsonWriterSettings.builder().outputMode(JsonMode.EXTENDED).build()));
      } else {
        out.println(hash);
      }
    }
    return ExitCodes.OK;
  }

  /** One extended JSON value. */
  static BsonValue parse(String text) {
    try {
      BsonDocument wrapper = BsonDocument.parse("{\"v\": " + text + "\n}");
      if (wrapper.size() != 1) {
        throw new IllegalArgumentException("'" + text + "' is more than one value.");
      }
      return wrapper.get("v");
    } catch (JsonParseException | BsonInvalidOperationException e) {
      throw new IllegalArgumentException("'" + text + "' is not a MongoDB extended JSON value (" + e.getMessage()
          + "); quote strings with double quotes inside single ones: '\"abc\"'.");
    }
  }
}
