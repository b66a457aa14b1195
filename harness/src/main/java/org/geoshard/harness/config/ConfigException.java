package org.geoshard.harness.config;

import java.util.List;

/**
 * A user's configuration is wrong. The message holds one full sentence per problem, each naming the
 * property, file or argument at fault, so that every mistake is reported at once.
 */
public final class ConfigException extends Exception {
  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super(String.join(System.lineSeparator(), problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a ConfigException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  public ConfigException(String problem) {
    this(List.of(problem));
  }

  public List<String> problems() {
    return problems;
  }
}
