package org.geoshard.harness.observe;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
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

  /** Before anything is measured. */
  public synchronized void open() {
    tell("the opening", StageListener::open);
  }

  /** Second 0 of the phase's time series is set. */
  public synchronized void clockStarted(long originEpochMs) {
    tell("the start of the clock", l -> l.clockStarted(originEpochMs));
  }

  public synchronized void started(Stage stage) {
    open.add(stage);
    tell("the start of " + stage.label(), l -> l.started(stage));
  }

  public synchronized void ended(Stage stage) {
    if (open.remove(stage)) {
      tell("the end of " + stage.label(), l -> l.ended(stage));
    }
  }

  /** Ends every stage still open (a phase that failed or was interrupted inside one). */
  public synchronized void endOpen() {
    for (Stage s : List.copyOf(open)) {
      ended(s);
    }
  }

  /** The phase was cut off: nothing waits on a server any more (before {@link #close()}). */
  public synchronized void cutOff() {
    tell("the cut-off", StageListener::cutOff);
  }

  /** The phase is over; safe to call again. */
  public synchronized void close() {
    tell("the close", StageListener::close);
  }

  private void tell(String when, Consumer<StageListener> event) {
    for (StageListener l : listeners) {
      try {
        event.accept(l);
      } catch (RuntimeException e) {
        LOG.warn("An observer failed at {}: {}", when, e.toString());
      }
    }
  }
}
