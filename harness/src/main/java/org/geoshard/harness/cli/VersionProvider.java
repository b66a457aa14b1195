package org.geoshard.harness.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** Prints the versions baked into the harness at build time. */
public final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() throws IOException {
    Properties versions = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream("/org/geoshard/harness/version.properties")) {
      if (in != null) {
        versions.load(in);
      }
    }
    return new String[] {
        "geoshard " + versions.getProperty("geoshard.version", "unknown")
            + " (YCSB core " + versions.getProperty("ycsb.version", "unknown") + ", git "
            + System.getProperty("geoshard.git.commit", "unknown") + ")",
        "Java " + System.getProperty("java.runtime.version", System.getProperty("java.version"))};
  }
}
