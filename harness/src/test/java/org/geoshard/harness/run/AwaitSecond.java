package org.geoshard.harness.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Waits for a run to reach a given second, as its time series shows, instead of sleeping a fixed
 * time: a slow start on a busy machine then cannot leave the run short of where a test expects it.
 */
public final class AwaitSecond {
  private AwaitSecond() {
  }

  /** Returns once timeseries.csv in {@code folder} holds a row of {@code second} or later (at most a minute). */
  public static void in(Path folder, long second, Future<?> run) throws Exception {
    Path csv = folder.resolve("timeseries.csv");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline && !run.isDone()) {
      if (Files.exists(csv) && Files.readAllLines(csv).stream().skip(1)
          .anyMatch(line -> Long.parseLong(line.substring(0, line.indexOf(','))) >= second)) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the run did not reach second " + second + " within a minute");
  }
}
