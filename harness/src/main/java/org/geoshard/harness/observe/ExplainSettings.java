package org.geoshard.harness.observe;

import java.time.Duration;
import org.geoshard.harness.config.PropertyReader;

/**
 * How often real requests are explained ({@code observe.explain.*}).
 *
 * @param samples requests explained per operation and window; 0 turns explaining off
 * @param window the window without a ramp or sweep (with one, each step is a window)
 */
public record ExplainSettings(int samples, Duration window) {
  public static final String SAMPLES = "observe.explain.samples";
  public static final String WINDOW = "observe.explain.window";
  public static final int DEFAULT_SAMPLES = 3;
  public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

  public static ExplainSettings off() {
    return new ExplainSettings(0, DEFAULT_WINDOW);
  }

  public boolean enabled() {
    return samples > 0;
  }

  public static ExplainSettings read(PropertyReader in) {
    int samples = in.intInRange(SAMPLES, DEFAULT_SAMPLES, 0, 1000);
    Duration window = in.seconds(WINDOW, DEFAULT_WINDOW, 1);
    return new ExplainSettings(samples, window);
  }
}
