package org.geoshard.mongodb;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.bson.Document;

/**
 * One thread's documents waiting for an {@code insertMany}: {@link #add} returns a full batch to write
 * when the buffer reaches the batch size, and {@link #drain} hands over the leftovers (at cleanup).
 * Not thread-safe: each binding instance, and so each client thread, has its own.
 */
public final class InsertBuffer {
  private final int batchSize;
  private List<Document> pending;

  public InsertBuffer(int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1: " + batchSize);
    }
    this.batchSize = batchSize;
    this.pending = new ArrayList<>(batchSize);
  }

  /** Adds a document; returns the batch to write when this one filled it, else null (buffered). */
  public List<Document> add(Document document) {
    pending.add(document);
    return pending.size() >= batchSize ? take() : null;
  }

  /** Gives the leftovers, if any, to {@code writer}; the buffer is empty afterwards even if it throws. */
  public void drain(Consumer<List<Document>> writer) {
    if (!pending.isEmpty()) {
      writer.accept(take());
    }
  }

  public int size() {
    return pending.size();
  }

  int batchSize() {
    return batchSize;
  }

  private List<Document> take() {
    List<Document> batch = pending;
    pending = new ArrayList<>(batchSize);
    return batch;
  }
}
