package org.geoshard.mongodb;

import com.mongodb.MongoCommandException;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the cell ranges' split and move commands, retrying one the server refuses with
 * ConflictingOperationInProgress (code 117), or a split it refuses with LockBusy (46): before 6.0.3
 * the balancer evens chunk counts, so right after the split (every chunk on the primary shard) a
 * balancer round may be migrating a chunk of the same collection; the collection takes one migration at
 * a time, and a split waits at most 5 s for that migration before LockBusy
 * ({@code ActiveMigrationsRegistry::registerSplitOrMergeChunk} in the server source). The balancer is left as the user
 * set it ({@code mongodb.balancer}): the binding waits for its round instead of stopping it. The wait is
 * bounded and said; the retries are counted for run.json.
 */
final class ConflictRetry {
  private static final Logger LOG = LoggerFactory.getLogger(ConflictRetry.class);
  static final int CONFLICTING_OPERATION_IN_PROGRESS = 117;
  static final int LOCK_BUSY = 46;
  /** A balancer round on the small test and study collections moves one chunk in seconds. */
  static final long WAIT_MS = 1_000;
  static final int MAX_RETRIES = 120;

  private final AdminCommands admin;
  private final long waitMillis;
  private final int maxRetries;
  private int retries;

  ConflictRetry(AdminCommands admin) {
    this(admin, WAIT_MS, MAX_RETRIES);
  }

  ConflictRetry(AdminCommands admin, long waitMillis, int maxRetries) {
    this.admin = admin;
    this.waitMillis = waitMillis;
    this.maxRetries = maxRetries;
  }

  /** Runs an admin command; a ConflictingOperationInProgress is waited out, up to the bound. */
  Document run(Document command) throws MongoStartException {
    String what = command.keySet().iterator().next() + " " + command.toJson();
    for (int attempt = 1; ; attempt++) {
      try {
        return admin.run("admin", command);
      } catch (MongoCommandException e) {
        boolean split = command.containsKey("split");
        if (e.getErrorCode() != CONFLICTING_OPERATION_IN_PROGRESS && !(split && e.getErrorCode() == LOCK_BUSY)) {
          throw e;
        }
        if (attempt > maxRetries) {
          throw new MongoStartException("The server refused " + what + " " + attempt + " times with "
              + e.getErrorCodeName() + " over " + (waitMillis * maxRetries / 1000) + " s (a balancer round or "
              + "another migration of the collection that did not end): " + e.getErrorMessage());
        }
        retries++;
        LOG.info("{} refused with {} ({}): waiting {} ms for the balancer's migration of this collection to end, "
            + "then retry {} of at most {}.", what, e.getErrorCodeName(), e.getErrorMessage(), waitMillis, attempt,
            maxRetries);
        try {
          TimeUnit.MILLISECONDS.sleep(waitMillis);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new MongoStartException("Interrupted while waiting to retry " + what + ".");
        }
      }
    }
  }

  /** The refusals waited out so far. */
  int retries() {
    return retries;
  }
}
