package org.geoshard.harness.run;

import org.geoshard.harness.measure.StopReason;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether and why the phase stops. Any thread may stop it (Ctrl-C, the give-up watch, the steps); the
 * first reason given wins. A stop reaches whoever waits: the thread waiting on the server before the
 * start is interrupted, and every hook registered with {@link #whenStopped} runs.
 */
final class StopSignal {
  private final AtomicReference<StopReason> reason = new AtomicReference<>();
  private final List<Runnable> hooks = new CopyOnWriteArrayList<>();
  private volatile boolean requested;
  /** Guards {@link #waitingOnServer}: the thread waiting on the server before the start, or null. */
  private final Object interruptLock = new Object();
  private Thread waitingOnServer;

  /** Work that waits on the server before the client threads start (the first contact, preparation). */
  @FunctionalInterface
  interface ServerWork<E extends Exception> {
    void run() throws E;
  }

  /** Stops the phase for {@code why}, unless it was stopped for another reason already. */
  void stop(StopReason why) {
    reason.compareAndSet(null, why);
    raise();
  }

  /** The main threads are done: whatever still runs (the thread groups) stops too, with no reason of its own. */
  void endPhase() {
    raise();
  }

  private void raise() {
    requested = true;
    synchronized (interruptLock) {
      if (waitingOnServer != null) {
        waitingOnServer.interrupt();
      }
    }
    hooks.forEach(Runnable::run);
  }

  /** Runs {@code hook} at the stop, or now when the phase was stopped already. Hooks may run more than once. */
  void whenStopped(Runnable hook) {
    hooks.add(hook);
    if (requested) {
      hook.run();
    }
  }

  boolean requested() {
    return requested;
  }

  /** The first reason given, or null while none was. */
  StopReason reason() {
    return reason.get();
  }

  /** Whether the phase ends now rather than at its count or time: Ctrl-C, SIGTERM or the give-up watch. */
  boolean cutOff() {
    StopReason why = reason.get();
    return why == StopReason.INTERRUPTED || why == StopReason.GIVEUP;
  }

  /**
   * Runs work on the server that a stop interrupts: a Ctrl-C while the first contact waits ends it at
   * once, not at the end of the wait. The interrupt is cleared before this returns (an interrupted
   * file channel would close when the run folder is written next).
   */
  <E extends Exception> void interruptibly(ServerWork<E> work) throws E {
    enterServerWait();
    try {
      work.run();
    } finally {
      leaveServerWait();
    }
  }

  /** As {@link #interruptibly}, but false without running the work when the phase was stopped already. */
  <E extends Exception> boolean interruptiblyUnlessStopped(ServerWork<E> work) throws E {
    if (!enterServerWait()) {
      leaveServerWait();
      return false;
    }
    try {
      work.run();
    } finally {
      leaveServerWait();
    }
    return true;
  }

  /** From now on a stop interrupts this thread; false when the phase was stopped already. */
  private boolean enterServerWait() {
    synchronized (interruptLock) {
      waitingOnServer = Thread.currentThread();
      return !requested;
    }
  }

  /** No more interrupts; one that came is cleared (the stop itself is in {@link #requested}). */
  private void leaveServerWait() {
    synchronized (interruptLock) {
      waitingOnServer = null;
      Thread.interrupted();
    }
  }
}
