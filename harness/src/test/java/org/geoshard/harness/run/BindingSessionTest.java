package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.ObservesServers;
import org.geoshard.harness.api.ServerProbe;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.output.RunRecord;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class BindingSessionTest {
  /** Test helper: a server that never answers its first contact, counting the attempts. */
  public static final class SlowUnreachableDB extends NoopDB implements Preparable, ObservesServers {
    static final AtomicInteger INITS = new AtomicInteger();

    @Override
    public void init() throws DBException {
      INITS.incrementAndGet();
      throw new DBException("No server answered at localhost:1 within 5 s");
    }

    @Override
    public void prepare(Stage stage, Set<DataRole> data, Steps steps) {
    }

    @Override
    public List<ServerProbe> serverProbes() {
      return List.of();
    }
  }

  @Test
  void aFailedFirstContactIsGivenAgainWithoutASecondWait() {
    BindingSession session = new BindingSession(new Binding("slow", SlowUnreachableDB.class), new Properties(),
        new RunRecord("run", "slow", SlowUnreachableDB.class.getName(), "w", "l", new Properties()));
    // The observer's probes reach the server first, then the check before the run: one wait, not two.
    assertThatThrownBy(session::serverProbes).hasMessage("No server answered at localhost:1 within 5 s");
    assertThatThrownBy(() -> session.checkBeforeRun(Set.of(DataRole.KEY_VALUE)))
        .hasMessage("No server answered at localhost:1 within 5 s");
    assertThatThrownBy(() -> session.prepare(Preparable.Stage.BEFORE_LOAD, Set.of(DataRole.KEY_VALUE)))
        .hasMessage("No server answered at localhost:1 within 5 s");
    assertThat(SlowUnreachableDB.INITS).hasValue(1);
  }
}
