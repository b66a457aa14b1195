package org.geoshard.harness.run;

/**
 * Something that runs beside the parts of a phase, on the harness's clock: sampling the servers,
 * tracing the disks. The runner tells it when each part begins and ends and closes it once the
 * phase is over (also after a failure or a stop), so that nothing it gathered is lost.
 */
public interface PhaseWatcher extends AutoCloseable {
  /** The parts of a phase a watcher may follow. */
  enum Part {
    /** The load's inserts. */
    LOAD,
    /** The preparation after the load (e.g. the index build). */
    AFTER_LOAD,
    /** The run's operations. */
    RUN;

    /** The part's name in properties and files: {@code load}, {@code after-load}, {@code run}. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }

  /**
   * A part begins.
   *
   * @param originEpochMs the start of the phase's measurement: second 0 of {@code timeseries.csv}
   */
  default void partStarted(Part part, long originEpochMs) {
  }

  /** A part has ended. */
  default void partEnded(Part part) {
  }

  /** The phase is over: stop, flush and record. Never throws. */
  @Override
  void close();
}
