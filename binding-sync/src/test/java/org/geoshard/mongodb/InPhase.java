package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.Preflight;
import org.geoshard.harness.api.Preflight.Check;
import org.geoshard.harness.api.SharedObjects;
import site.ycsb.Workload;

/**
 * A binding as {@code bin/ycsb preflight} and a run's start use it: joined to a phase whose declaration
 * comes from the initialised workload, initialised, asked, cleaned up.
 */
final class InPhase {
  private InPhase() {
  }

  interface Action<T> {
    T on(MongoBinding db) throws Exception;
  }

  static <T> T with(MongoBinding db, Properties p, Workload workload, Action<T> action) throws Exception {
    workload.init(p);
    db.setProperties(p);
    try (SharedObjects shared = new SharedObjects(DataDeclaration.ofInitialised(workload, p))) {
      db.joinRun(shared);
      db.init();
      try {
        return action.on(db);
      } finally {
        db.cleanup();
      }
    }
  }

  static List<Check> preflight(MongoBinding db, Properties p, Workload workload, Preflight.Before before)
      throws Exception {
    return with(db, p, workload, d -> d.preflight(before));
  }

  /** What the run says before its threads start: its refusal's message, or null when it would start. */
  static String refusal(MongoBinding db, Properties p, Workload workload, Set<DataRole> data) throws Exception {
    return with(db, p, workload, d -> {
      Throwable thrown = catchThrowable(() -> d.checkBeforeRun(data));
      if (thrown != null) {
        assertThat(thrown).isInstanceOf(MongoStartException.class);
      }
      return thrown == null ? null : thrown.getMessage();
    });
  }
}
