package org.geoshard.harness.observe;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;

/**
 * What the server sampler does: how often it samples ({@code observe.interval}, 0 turns it off) and
 * which Prometheus node exporters it scrapes besides the binding's own nodes
 * ({@code observe.nodeexporter}). Immutable; read once before the run starts.
 */
public final class ObserveSettings {
  public static final String INTERVAL = "observe.interval";
  public static final String NODE_EXPORTER = "observe.nodeexporter";
  /** Once a second, the resolution of {@code timeseries.csv}. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
  /** A sampler that samples less often than this would miss whole phases. */
  static final double MAX_INTERVAL_SECONDS = 3600;

  private final Duration interval;
  private final List<String> nodeExporters;

  private ObserveSettings(Builder b) {
    if (b.interval.isNegative()) {
      throw new IllegalArgumentException("interval must not be negative: " + b.interval);
    }
    this.interval = b.interval;
    this.nodeExporters = List.copyOf(b.nodeExporters);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Reads {@code observe.*}, naming every malformed value. */
  public static ObserveSettings fromProperties(Properties properties) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    Builder b = builder();
    double seconds = in.doubleInRange(INTERVAL, DEFAULT_INTERVAL.toSeconds(), 0, MAX_INTERVAL_SECONDS);
    b.interval(Duration.ofMillis(Math.round(seconds * 1000)));
    if (seconds > 0 && seconds < 0.1) {
      in.problem("Property '" + INTERVAL + "' is " + in.raw(INTERVAL) + " s; sample at most ten times a second"
          + " (0.1 or more), or 0 to turn the sampler off.");
    }
    String exporters = in.raw(NODE_EXPORTER);
    if (exporters != null && !exporters.isBlank()) {
      for (String part : exporters.split(",")) {
        String endpoint = part.trim();
        if (!validEndpoint(endpoint)) {
          in.problem("Property '" + NODE_EXPORTER + "' must be a comma-separated list of host:port (such as"
              + " 10.0.0.5:9100), but holds '" + endpoint + "'.");
        } else {
          b.nodeExporters.add(endpoint);
        }
      }
    }
    in.throwIfProblems();
    return b.build();
  }

  private static boolean validEndpoint(String endpoint) {
    int colon = endpoint.lastIndexOf(':');
    if (colon <= 0 || colon == endpoint.length() - 1 || endpoint.contains("/")) {
      return false;
    }
    try {
      int port = Integer.parseInt(endpoint.substring(colon + 1));
      return port > 0 && port < 65536;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** Time between two samples of every node; zero when the sampler is off. */
  public Duration interval() {
    return interval;
  }

  public boolean enabled() {
    return !interval.isZero();
  }

  /** The node exporters to scrape, as {@code host:port}. */
  public List<String> nodeExporters() {
    return nodeExporters;
  }

  /** Builds {@link ObserveSettings}. */
  public static final class Builder {
    private Duration interval = DEFAULT_INTERVAL;
    private final List<String> nodeExporters = new ArrayList<>();

    private Builder() {
    }

    public Builder interval(Duration interval) {
      this.interval = interval;
      return this;
    }

    public Builder nodeExporter(String hostPort) {
      nodeExporters.add(hostPort);
      return this;
    }

    public ObserveSettings build() {
      return new ObserveSettings(this);
    }
  }
}
