package org.geoshard.mongodb.async;

import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoOperationTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * Waits on the calling thread for a publisher of the reactive streams driver: the YCSB thread
 * subscribes, parks, and is unparked by the driver's own thread when the publisher completes (no
 * executor, no queue, no extra thread in between). Each item goes to a consumer on the driver's
 * thread as it arrives, so nothing is copied or buffered beyond what the caller keeps. One subscriber
 * per request; not reusable.
 *
 * <p>The driver's deadline ({@code mongodb.timeout.ms}, its client-side operation timeout) ends a
 * request that hangs. The wait has a deadline of its own a little after it, so that a request never
 * hangs even if a publisher never signals: it is then cancelled and fails with
 * {@link MongoOperationTimeoutException}. An interrupt of the waiting thread cancels the subscription
 * and throws {@link MongoInterruptedException}.
 *
 * <p>A publisher that never signals is one the driver abandoned: its own callback threw (as on a reply
 * it cannot read) and it neither ends the request nor checks the connection back in. The wait then
 * calls its {@code abandoned} hook before failing, so that the caller can reclaim the connection
 * (see {@link Endpoint}).
 */
final class Blocking<T> implements Subscriber<T> {
  /** How long after the driver's deadline the wait gives up by itself. */
  static final long MARGIN_MS = 2_000;

  private final Thread waiter;
  private final Consumer<? super T> sink;
  private final long timeoutMs;
  private final Runnable abandoned;
  private volatile boolean done;
  private Throwable error;
  private Subscription subscription;

  private Blocking(Consumer<? super T> sink, long timeoutMs, Runnable abandoned) {
    this.waiter = Thread.currentThread();
    this.sink = sink;
    this.timeoutMs = timeoutMs;
    this.abandoned = abandoned;
  }

  /** The first item, or null when the publisher completes empty (e.g. {@code find(...).first()}). */
  static <T> T first(Publisher<T> publisher, long timeoutMs, Runnable abandoned) {
    Object[] holder = new Object[1];
    Blocking<T> b = new Blocking<>(item -> {
      if (holder[0] == null) {
        holder[0] = item;
      }
    }, timeoutMs, abandoned);
    publisher.subscribe(b);
    b.await(System.nanoTime());
    @SuppressWarnings("unchecked")
    T first = (T) holder[0];
    return first;
  }

  /** Every item, in order, into {@code sink} (called on the driver's thread, one item at a time). */
  static <T> void each(Publisher<T> publisher, Consumer<? super T> sink, long timeoutMs, Runnable abandoned) {
    Blocking<T> b = new Blocking<>(sink, timeoutMs, abandoned);
    publisher.subscribe(b);
    b.await(System.nanoTime());
  }

  /**
   * Subscribes to every publisher at once, waits for all, and gives per publisher its first item (null
   * when none) or the {@link Throwable} it failed with; {@code abandoned.get(i)} runs if publisher i never signals.
   */
  static List<Object> settle(List<? extends Publisher<?>> publishers, long timeoutMs, List<Runnable> abandoned) {
    long start = System.nanoTime();
    List<Blocking<Object>> subscribers = new ArrayList<>(publishers.size());
    Object[] firsts = new Object[publishers.size()];
    for (int i = 0; i < publishers.size(); i++) {
      int index = i;
      Blocking<Object> b = new Blocking<>(item -> {
        if (firsts[index] == null) {
          firsts[index] = item;
        }
      }, timeoutMs, abandoned.get(i));
      subscribers.add(b);
      @SuppressWarnings("unchecked")
      Publisher<Object> any = (Publisher<Object>) publishers.get(i);
      any.subscribe(b);
    }
    List<Object> outcomes = new ArrayList<>(publishers.size());
    for (int i = 0; i < subscribers.size(); i++) {
      try {
        subscribers.get(i).await(start);
        outcomes.add(firsts[i]);
      } catch (RuntimeException | Error e) {
        outcomes.add(e);
      }
    }
    return outcomes;
  }

  private void cancel() {
    Subscription s = subscription;
    if (s != null) {
      s.cancel();
    }
  }

  @Override
  public void onSubscribe(Subscription s) {
    subscription = s;
    s.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(T item) {
    if (done) {
      return;
    }
    try {
      sink.accept(item);
    } catch (RuntimeException | Error e) {
      // A subscriber must not throw (reactive streams 2.13): stop the request and hand the failure to the waiter.
      subscription.cancel();
      onError(e);
    }
  }

  @Override
  public void onError(Throwable t) {
    if (done) {
      return;
    }
    error = t;
    done = true;  // publishes error to the waiter
    LockSupport.unpark(waiter);
  }

  @Override
  public void onComplete() {
    if (done) {
      return;
    }
    done = true;
    LockSupport.unpark(waiter);
  }

  /** Parks until the publisher is done (rethrowing its error), or until the deadline from {@code startNanos}. */
  void await(long startNanos) {
    long deadline = startNanos + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(timeoutMs + MARGIN_MS);
    while (!done) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        cancel();
        abandoned.run();
        throw new MongoOperationTimeoutException("MongoDB did not answer within " + timeoutMs
            + " ms (mongodb.timeout.ms) and the driver did not end the request; it was cancelled.");
      }
      LockSupport.parkNanos(this, left);
      if (Thread.interrupted() && !done) {
        cancel();
        Thread.currentThread().interrupt();
        throw new MongoInterruptedException("Interrupted while waiting for MongoDB", null);
      }
    }
    Throwable e = error;
    if (e instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (e instanceof Error fatal) {
      throw fatal;
    }
    if (e != null) {
      throw new IllegalStateException(e);
    }
  }
}
