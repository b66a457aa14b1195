package org.geoshard.mongodb;

import com.mongodb.client.MongoClient;
import org.bson.Document;

/**
 * The one door through which the cluster layout's commands go (enableSharding, shardCollection, split,
 * moveChunk/moveRange, replSetInitiate, addShard, hello): a command to a database, its reply back, a
 * refusal as {@link com.mongodb.MongoCommandException}. Over a real client in the binding and
 * {@link ThrowawayCluster}; a unit test puts a scripted router behind it to check the sequence each
 * server version accepts, since no MongoDB runs where the tests are written.
 */
@FunctionalInterface
interface AdminCommands {
  Document run(String database, Document command);

  static AdminCommands over(MongoClient client) {
    return (database, command) -> client.getDatabase(database).runCommand(command);
  }
}
