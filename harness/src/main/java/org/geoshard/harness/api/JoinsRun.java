package org.geoshard.harness.api;

/**
 * Implemented by a binding whose instances share objects within a phase ({@link RunContext}). The
 * harness calls {@link #joinRun} on every instance it creates, before {@code init}. Under plain YCSB
 * nobody calls it, and the binding falls back to {@link StandaloneRun#context}.
 */
public interface JoinsRun {
  void joinRun(RunContext context);
}
