package org.geoshard.harness.observe;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runner's listeners, told in order; a listener that throws is logged and the others go on. Keeps
 * which stages are open so that {@link #endOpen()} ends them when a phase stops early.
 */
public final class StageListeners {
  private static final Logger LOG = LoggerFactory.getLogger(StageListeners.class);
  private final List<StageListener> listeners = new ArrayList<>();
  private final Set<Stage> open = EnumSet.noneOf(Stage.class);

  public synchronized void add(StageListener listener) {
    listeners.add(listener);
  }

  public synchronized void started(Stage stage) {
    open.add(stage);
    for (StageListener l : listeners) {
      try {
        l.started(stage);
      } catch (RuntimeException e) {
        LOG.warn("An observer failed at the start of {}: {}", stage.label(), e.toString());
      }
    }
  }

  public synchronized void ended(Stage stage) {
    if (!open.remove(stage)) {
      return;
    }
    for (StageListener l : listeners) {
      try {
        l.ended(stage);
      } catch (RuntimeException e) {
        LOG.warn("An observer failed at the end of {}: {}", stage.label(), e.toString());
      }
    }
  }

  /** Ends every stage still open (a phase that failed or was interrupted inside one). */
  public synchronized void endOpen() {
    for (Stage s : List.copyOf(open)) {
      ended(s);
    }
  }
}
