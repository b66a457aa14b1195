package org.geoshard.mongodb.routing;

import java.util.List;
import org.bson.BsonValue;

/** The values of every BSON type from {@link ShardKeyHashTest}, for tests in other packages. */
public final class ShardKeyHashTestAccess {
  private ShardKeyHashTestAccess() {
  }

  public static List<BsonValue> everyType() {
    return ShardKeyHashTest.everyType();
  }
}
