package org.geoshard.harness.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SharedObjectsTest {
  private final SharedObjects context = new SharedObjects(DataDeclaration.keyValue());

  @Test
  void makesOneObjectPerKeyEvenUnderConcurrentFirstUses() throws Exception {
    AtomicInteger made = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<StringBuilder>> asked = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        asked.add(pool.submit(() -> {
          go.await();
          return context.shared("key", StringBuilder.class, () -> {
            made.incrementAndGet();
            return new StringBuilder();
          });
        }));
      }
      go.countDown();
      StringBuilder first = asked.get(0).get(30, TimeUnit.SECONDS);
      for (Future<StringBuilder> f : asked) {
        assertThat(f.get(30, TimeUnit.SECONDS)).isSameAs(first);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(made).hasValue(1);
    assertThat(context.shared("other", StringBuilder.class, StringBuilder::new)).isNotSameAs(
        context.shared("key", StringBuilder.class, StringBuilder::new));
  }

  @Test
  void closesWhatItHoldsLatestFirstAndRefusesUseAfterwards() {
    List<String> closed = new ArrayList<>();
    context.shared("a", AutoCloseable.class, () -> () -> closed.add("a"));
    context.shared("b", AutoCloseable.class, () -> () -> {
      closed.add("b");
      throw new IllegalStateException("b fails to close");
    });
    context.shared("c", AutoCloseable.class, () -> () -> closed.add("c"));
    context.close();
    context.close();
    assertThat(closed).containsExactly("c", "b", "a");
    assertThatThrownBy(() -> context.shared("a", Object.class, Object::new))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("'a'");
  }

  @Test
  void aKeyHoldingAnotherTypeIsRefused() {
    context.shared("k", String.class, () -> "text");
    assertThatThrownBy(() -> context.shared("k", Integer.class, () -> 1)).isInstanceOf(ClassCastException.class);
  }
}
