package org.geoshard.harness.api;

/** How a failure is said in one sentence to the user (the stack trace is for debugging). */
public final class Throwables {
  private Throwables() {
  }

  /** The exception's message, or its simple class name when it has none (a bare NullPointerException). */
  public static String describe(Throwable e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }
}
