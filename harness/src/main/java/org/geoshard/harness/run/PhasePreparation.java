package org.geoshard.harness.run;

import static org.geoshard.harness.api.Throwables.describe;

import java.io.IOException;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.api.Secrets;
import org.geoshard.harness.observe.Stage;
import org.geoshard.harness.observe.StageListeners;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * The database around a phase: before the client threads a load prepares it and a run checks it is
 * ready (a stop ends either at once), and after a load that was not stopped it is prepared again.
 */
final class PhasePreparation {
  /** Logged as the runner: the user's log lines name the runner, as before preparation had a class. */
  private static final Logger LOG = LoggerFactory.getLogger(Runner.class);

  private final PhasePlan plan;
  private final BindingSession session;
  private final StopSignal stop;
  private final RunRecorder recorder;
  private final StageListeners stageListeners;

  PhasePreparation(PhasePlan plan, BindingSession session, StopSignal stop, RunRecorder recorder,
      StageListeners stageListeners) {
    this.plan = plan;
    this.session = session;
    this.stop = stop;
    this.recorder = recorder;
    this.stageListeners = stageListeners;
  }

  /**
   * Prepares the database for a load, or checks it for a run; run.json keeps the steps.
   *
   * @throws StartFailedException it failed, or a stop (Ctrl-C) came first: nothing will be measured
   */
  void beforeThreads() throws StartFailedException, IOException {
    try {
      boolean ran = stop.interruptiblyUnlessStopped(() -> {
        if (plan.load()) {
          session.prepare(Preparable.Stage.BEFORE_LOAD, plan.data());
        } else {
          session.checkBeforeRun(plan.data());
        }
      });
      if (!ran) {
        throw new DBException("stopped before the start");
      }
    } catch (DBException | RuntimeException e) {
      if (stop.reason() == StopReason.INTERRUPTED) {
        throw recorder.interruptedBeforeStart();
      }
      throw plan.load() ? recorder.failedToStart("failed to prepare", "Preparing the database failed", e)
          : recorder.failedToStart("failed to start", "The run could not start", e);
    }
    if (plan.load()) {
      recorder.prepared();
    }
  }

  /** After a load that was not stopped: the preparation after it; its failure in one sentence, or null. */
  String afterThreads() {
    if (!plan.load() || stop.reason() != null) {
      return null;
    }
    stageListeners.started(Stage.AFTER_LOAD);
    try {
      session.prepare(Preparable.Stage.AFTER_LOAD, plan.data());
      return null;
    } catch (DBException | RuntimeException e) {
      // One sentence for the user; the stack is for debugging only.
      String failure = Secrets.maskText("Preparing the database after the load failed: " + describe(e));
      LOG.error(failure);
      LOG.debug("The failed preparation step", e);
      return failure;
    } finally {
      stageListeners.ended(Stage.AFTER_LOAD);
    }
  }
}
