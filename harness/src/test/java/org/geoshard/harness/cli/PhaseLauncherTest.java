package org.geoshard.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.geoshard.harness.binding.BindingRegistry;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.config.PropertyCatalog;
import org.geoshard.harness.config.PropertyReader;
import org.geoshard.harness.config.UnknownProperties;
import org.geoshard.harness.run.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** What the launcher says of bad properties before anything starts. */
class PhaseLauncherTest {
  /** A module that reads the harness's status.interval as well, as binding-postgis does. */
  private static final PropertyCatalog ALSO_READS_STATUS_INTERVAL = new PropertyCatalog() {
    @Override
    public Set<String> prefixes() {
      return Set.of("mod.");
    }

    @Override
    public Set<String> names() {
      return Set.of("mod.x");
    }

    @Override
    public List<String> problems(Properties properties) {
      PropertyReader in = new PropertyReader(properties);
      in.seconds("status.interval", java.time.Duration.ofSeconds(10), 0);
      return in.problems();
    }
  };

  @Test
  void aMalformedValueReadByTheHarnessAndAModuleIsSaidOnce(@TempDir Path dir) {
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    Logger logger = (Logger) LoggerFactory.getLogger(PhaseLauncher.class);
    logged.start();
    logger.addAppender(logged);
    try {
      BindingRegistry registry = new BindingRegistry(new TreeMap<>(java.util.Map.of("noop", NoopDB.class.getName())),
          PhaseLauncherTest.class.getClassLoader());
      PhaseLauncher launcher = new PhaseLauncher(Phase.RUN, registry,
          new UnknownProperties(List.of(ALSO_READS_STATUS_INTERVAL)), dir, new PrintStream(new ByteArrayOutputStream()));
      int code = launcher.launch("noop", List.of(), List.of("workload=site.ycsb.workloads.CoreWorkload",
          "operationcount=10", "status.interval=abc"), null, null);
      assertThat(code).isEqualTo(ExitCodes.USAGE);
      assertThat(logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList()).containsExactly(
          "Property 'status.interval' must be a whole number of at least 0, but is 'abc'.");
    } finally {
      logger.detachAppender(logged);
    }
  }
}
