package org.geoshard.harness.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.geoshard.harness.api.ExplainsOperations;
import org.geoshard.harness.api.ExplainsOperations.QueryExplain;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class ExplainSamplerTest {
  private static final long SECOND = 1_000_000_000L;

  /** Answers with every shard, counting how often it was asked. */
  private static final class Broadcast implements ExplainsOperations {
    final AtomicInteger asked = new AtomicInteger();

    @Override
    public Optional<QueryExplain> explainLast() {
      asked.incrementAndGet();
      return Optional.of(new QueryExplain(List.of("shard01", "shard02", "shard03"), 300, 10, Map.of("n", 1)));
    }
  }

  @Test
  void explainsAtMostTheBudgetPerOperationAndWindow() {
    AtomicLong now = new AtomicLong(100 * SECOND);
    ExplainSampler sampler = new ExplainSampler(2, 10 * SECOND, now::get);
    sampler.start();
    Broadcast near = new Broadcast();
    Broadcast paged = new Broadcast();
    for (int i = 0; i < 50; i++) {
      sampler.offer("GEO_NEAR", near);
      sampler.offer("GEO_NEXT_PAGE", paged);
    }
    now.addAndGet(10 * SECOND);  // the next window
    for (int i = 0; i < 50; i++) {
      sampler.offer("GEO_NEAR", near);
    }
    assertThat(near.asked).hasValue(4);
    assertThat(paged.asked).hasValue(2);

    Map<String, Object> record = sampler.toRecord();
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> ops = (Map<String, Map<String, Object>>) record.get("operations");
    Map<String, Object> geoNear = ops.get("GEO_NEAR");
    assertThat(geoNear).containsEntry("samples", 4).containsEntry("targetsPerQuery", 3.0)
        .containsEntry("targetsMin", 3).containsEntry("targetsMax", 3)
        .containsEntry("examined", 1200L).containsEntry("returned", 40L).containsEntry("examinedPerReturned", 30.0)
        .containsEntry("targetCounts", Map.of("shard01", 4, "shard02", 4, "shard03", 4));
    assertThat((List<?>) geoNear.get("windows")).hasSize(2);
    assertThat(ops.get("GEO_NEXT_PAGE")).containsEntry("samples", 2);
  }

  @Test
  void aThreadWhoseClockReadingIsOfAPassedWindowGetsNoExplain() {
    AtomicLong now = new AtomicLong(0);
    ExplainSampler sampler = new ExplainSampler(1, 10 * SECOND, now::get);
    sampler.start();
    Broadcast near = new Broadcast();
    now.set(15 * SECOND);  // window 1 opens and is spent
    sampler.offer("GEO_NEAR", near);
    now.set(5 * SECOND);   // a slower thread read the clock in window 0, which has closed
    sampler.offer("GEO_NEAR", near);
    now.set(25 * SECOND);  // window 2: a new budget
    sampler.offer("GEO_NEAR", near);
    assertThat(near.asked).hasValue(2);
  }

  @Test
  void aFailingExplainIsCountedAndNeverThrown() {
    ExplainSampler sampler = new ExplainSampler(1, SECOND, () -> 0);
    sampler.offer("GEO_NEAR", () -> {
      throw new DBException("explain is not allowed");
    });
    sampler.offer("GEO_NEAR", Optional::empty);
    assertThat(sampler.toRecord()).containsEntry("failures", 1);
    assertThat((Map<?, ?>) sampler.toRecord().get("operations")).isEmpty();
  }
}
