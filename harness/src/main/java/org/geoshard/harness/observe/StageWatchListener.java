package org.geoshard.harness.observe;

import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.geoshard.harness.api.WatchesStages.StageWatch;
import org.geoshard.harness.output.RunRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * Runs a binding's {@link StageWatch} beside the phase: asks for it when the phase opens, tells it each
 * stage's start and end, records its findings in {@code run.json} (under the watch's field, one entry
 * per stage) and closes it with the phase. A stage with a warning is said at its end, since a measured
 * stage's figures may have changed.
 */
public final class StageWatchListener implements StageListener {
  private static final Logger LOG = LoggerFactory.getLogger(StageWatchListener.class);
  private static final Set<Stage> MEASURED = Set.of(Stage.LOAD, Stage.RUN);

  /** Gives the watch (from a binding instance of its own), or null when there is none. */
  @FunctionalInterface
  public interface Source {
    StageWatch watch() throws DBException;
  }

  private final Source source;
  private final RunRecord record;
  private final Map<Stage, Instant> starts = new EnumMap<>(Stage.class);
  private final Map<String, Object> findings = new LinkedHashMap<>();
  private StageWatch watch;
  private volatile boolean cut;
  private String openFailure;

  public StageWatchListener(Source source, RunRecord record) {
    this.source = source;
    this.record = record;
  }

  @Override
  public void open() {
    try {
      watch = source.watch();
    } catch (DBException | RuntimeException e) {
      // Said when a stage starts: a first contact that failed (or a Ctrl-C during it) is the phase's to say.
      openFailure = e.getMessage();
    }
  }

  @Override
  public void started(Stage stage) {
    if (openFailure != null) {
      LOG.warn("Could not watch the database around the phase: {}", openFailure);
      openFailure = null;
    }
    if (watch != null) {
      starts.put(stage, Instant.now());
      watch.started(stage.label());
    }
  }

  @Override
  public void ended(Stage stage) {
    Instant start = starts.remove(stage);
    if (watch == null || start == null) {
      return;
    }
    // Cut off (Ctrl-C, a give-up): the server may not answer, so nothing more is asked of it here.
    Map<String, Object> found = cut ? Map.of("notRead", "the phase was cut off")
        : watch.ended(stage.label(), start, Instant.now());
    findings.put(stage.label(), found);
    record.put(watch.field(), new LinkedHashMap<>(findings));
    if (MEASURED.contains(stage) && found.get("warning") instanceof String warning) {
      LOG.warn("During the {}: {}", stage.label(), warning);
    }
  }

  @Override
  public void cutOff() {
    cut = true;
  }

  /** Restores what the watch changed (the balancer), also after a cut-off: that is bounded by its own deadline. */
  @Override
  public void close() {
    if (watch != null) {
      StageWatch closing = watch;
      watch = null;
      closing.close();
    }
  }
}
