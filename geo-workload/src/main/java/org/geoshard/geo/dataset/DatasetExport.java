package org.geoshard.geo.dataset;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Writes the dataset as JSON lines, one restaurant per line in id order, optionally gzip-compressed.
 *
 * <p>Export is bound by deflate, so the work is cut into chunks of consecutive restaurants that
 * several threads generate and compress at once (restaurant k is a pure function of k, see
 * {@link RestaurantDataset}); the calling thread writes the chunks in order. A compressed chunk is a
 * complete gzip member: concatenated members are one valid gzip file (RFC 1952; {@code gzip -d},
 * {@code mongoimport --gzip} and Java's {@code GZIPInputStream} read them all), as {@code pigz} makes.
 * At most two chunks per thread are in flight, so memory stays bounded whatever the dataset's size.
 *
 * <p>The decompressed bytes do not depend on the number of threads, the level or the chunk size.
 */
public final class DatasetExport {
  /** No compression: plain JSON lines. */
  public static final int UNCOMPRESSED = -1;
  /** Restaurants per chunk: about 4 MB of JSON, large enough that the gzip members cost nothing. */
  public static final int DEFAULT_CHUNK = 16_384;

  private final int threads;
  private final int level;
  private final int chunk;

  /**
   * @param threads generating and compressing threads, at least 1
   * @param level a deflate level 1 (fastest) to 9 (smallest), or {@link #UNCOMPRESSED}
   * @param chunk restaurants per chunk, at least 1
   */
  public DatasetExport(int threads, int level, int chunk) {
    if (threads < 1 || chunk < 1) {
      throw new IllegalArgumentException("threads and chunk must be at least 1: " + threads + ", " + chunk);
    }
    if (level != UNCOMPRESSED && (level < Deflater.BEST_SPEED || level > Deflater.BEST_COMPRESSION)) {
      throw new IllegalArgumentException("level must be 1 to 9: " + level);
    }
    this.threads = threads;
    this.level = level;
    this.chunk = chunk;
  }

  /** Writes every restaurant of the dataset to {@code out} (not closed); the number written. */
  public long write(RestaurantDataset dataset, OutputStream out) throws IOException {
    long size = dataset.size();
    AtomicInteger names = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads, task -> {
      Thread thread = new Thread(task, "dataset-export-" + names.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    try {
      ArrayDeque<Future<byte[]>> inFlight = new ArrayDeque<>();
      long next = 0;
      while (next < size || !inFlight.isEmpty()) {
        while (next < size && inFlight.size() < 2 * threads) {
          long from = next;
          long to = Math.min(size, from + chunk);
          inFlight.add(pool.submit(() -> encode(dataset, from, to)));
          next = to;
        }
        out.write(await(inFlight.poll()));
      }
      return size;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Restaurants [from, to) as JSON lines, a gzip member of them unless uncompressed. */
  private byte[] encode(RestaurantDataset dataset, long from, long to) throws IOException {
    StringBuilder text = new StringBuilder((int) Math.min(Integer.MAX_VALUE / 2, (to - from) * 256));
    for (long k = from; k < to; k++) {
      RestaurantJson.append(dataset.restaurant(k), text);
      text.append('\n');
    }
    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    if (level == UNCOMPRESSED) {
      return bytes;
    }
    ByteArrayOutputStream member = new ByteArrayOutputStream(bytes.length / 4);
    try (GZIPOutputStream gzip = new LeveledGzip(member, level)) {
      gzip.write(bytes);
    }
    return member.toByteArray();
  }

  private static byte[] await(Future<byte[]> future) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while exporting the dataset");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof UncheckedIOException io) {
        throw io.getCause();
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(cause);
    }
  }

  /** A gzip stream at a chosen deflate level (the JDK's class has no constructor for it). */
  private static final class LeveledGzip extends GZIPOutputStream {
    LeveledGzip(OutputStream out, int level) throws IOException {
      super(out, 1 << 16);
      def.setLevel(level);
    }
  }
}
