package org.geoshard.harness.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The harness's {@link RunContext}: one object per key, made once, closed with the context (latest
 * first). Thread-safe. A {@code create} runs under the context's lock: it may ask the same context for
 * another key (the lock is re-entrant), and must not wait for another thread that asks it.
 */
public final class SharedObjects implements RunContext, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SharedObjects.class);

  private final DataDeclaration data;
  /** The command's context when it runs several phases (see {@link #process()}); null: this one. */
  private final RunContext process;
  private final Map<Object, Object> objects = new LinkedHashMap<>();
  private boolean closed;

  public SharedObjects(DataDeclaration data) {
    this(data, null);
  }

  /** A phase's objects within a command's ({@code process}, closed by the command; null: this is the process). */
  public SharedObjects(DataDeclaration data, RunContext process) {
    this.data = Objects.requireNonNull(data, "data");
    this.process = process;
  }

  @Override
  public RunContext process() {
    return process == null ? this : process;
  }

  @Override
  public DataDeclaration data() {
    return data;
  }

  @Override
  public synchronized <T> T shared(Object key, Class<T> type, Supplier<? extends T> create) {
    if (closed) {
      throw new IllegalStateException("The run's context is closed; '" + key + "' was asked for after the phase.");
    }
    Object existing = objects.get(key);
    if (existing == null) {
      existing = Objects.requireNonNull(create.get(), "created " + key);
      objects.put(key, existing);
    }
    return type.cast(existing);
  }

  /** Closes what the context holds that can be closed, latest first; a failure is logged, the rest still closed. */
  @Override
  public void close() {
    List<Object> held;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      held = new ArrayList<>(objects.values());
      objects.clear();
    }
    for (int i = held.size() - 1; i >= 0; i--) {
      if (held.get(i) instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception e) {
          LOG.warn("Closing {} at the end of the phase failed: {}", closeable.getClass().getSimpleName(), e.toString());
        }
      }
    }
  }
}
