package org.geoshard.harness.run;

/** The run could not start: the workload or the binding failed to initialise. Nothing was measured. */
public final class StartFailedException extends Exception {
  public StartFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
