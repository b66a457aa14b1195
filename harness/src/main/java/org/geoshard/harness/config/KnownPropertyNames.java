package org.geoshard.harness.config;

/**
 * Prints every property name the modules on the class path and YCSB read, one a line (a name the
 * user makes ends in {@code *}). Not a {@code bin/ycsb} command: {@code tools/docscheck.py} runs it
 * with {@code dist/target/classpath.txt} to check the property names the READMEs mention.
 */
public final class KnownPropertyNames {
  private KnownPropertyNames() {
  }

  public static void main(String[] args) {
    StringBuilder out = new StringBuilder();
    UnknownProperties.fromClassPath().knownNames().forEach(name -> out.append(name).append('\n'));
    System.out.print(out);
  }
}
