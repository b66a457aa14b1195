package org.geoshard.mongodb.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoOperationTimeoutException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.junit.jupiter.api.Test;

/** How a wait on a publisher ends when the publisher or the caller's sink misbehaves. */
class BlockingTest {
  /** A publisher that records cancels and, when {@code items} is null, never signals after the subscription. */
  private static final class Recorded implements Publisher<String> {
    final AtomicInteger cancels = new AtomicInteger();
    private final List<String> items;

    Recorded(List<String> items) {
      this.items = items;
    }

    @Override
    public void subscribe(Subscriber<? super String> s) {
      s.onSubscribe(new Subscription() {
        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
          cancels.incrementAndGet();
        }
      });
      if (items != null) {
        items.forEach(s::onNext);
        s.onComplete();
      }
    }
  }

  @Test
  void aPublisherThatNeverSignalsIsCancelledAndReportedAbandonedAtTheDeadline() {
    Recorded silent = new Recorded(null);
    AtomicInteger abandoned = new AtomicInteger();
    long start = System.nanoTime();
    assertThatThrownBy(() -> Blocking.first(silent, 100, abandoned::incrementAndGet))
        .isInstanceOf(MongoOperationTimeoutException.class)
        .hasMessageContaining("did not answer within 100 ms (mongodb.timeout.ms)");
    assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(100 + Blocking.MARGIN_MS);
    assertThat(silent.cancels).hasValue(1);
    assertThat(abandoned).hasValue(1);
  }

  @Test
  void aSinkThatThrowsCancelsTheRequestAndFailsTheWaitWithoutAbandoningIt() {
    Recorded two = new Recorded(List.of("a", "b"));
    AtomicInteger abandoned = new AtomicInteger();
    assertThatThrownBy(() -> Blocking.each(two, item -> {
      throw new IllegalArgumentException("cannot take " + item);
    }, 60_000, abandoned::incrementAndGet)).isInstanceOf(IllegalArgumentException.class).hasMessage("cannot take a");
    assertThat(two.cancels).hasValue(1);
    assertThat(abandoned).as("the driver ended it: nothing to reclaim").hasValue(0);
  }

  @Test
  void settleReportsOnlyThePublishersThatNeverSignalled() {
    Recorded silent = new Recorded(null);
    Recorded answered = new Recorded(List.of("x"));
    AtomicInteger first = new AtomicInteger();
    AtomicInteger second = new AtomicInteger();
    List<Object> outcomes = Blocking.settle(List.of(silent, answered), 100,
        List.of(first::incrementAndGet, second::incrementAndGet));
    assertThat(outcomes.get(0)).isInstanceOf(MongoOperationTimeoutException.class);
    assertThat(outcomes.get(1)).isEqualTo("x");
    assertThat(first).hasValue(1);
    assertThat(second).hasValue(0);
    assertThat(silent.cancels).hasValue(1);
  }
}
