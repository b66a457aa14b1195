package org.geoshard.geo.dataset;

import com.github.luben.zstd.Zstd;
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
 * Writes the dataset as JSON lines, one restaurant per line in id order, optionally compressed (gzip or
 * zstd).
 *
 * <p>Export is bound by deflate, so the work is cut into chunks of consecutive restaurants that
 * several threads generate and compress at once (restaurant k is a pure function of k, see
 * {@link RestaurantDataset}); the calling thread writes the chunks in order. A compressed chunk is a
 * complete gzip member: concatenated members are one valid gzip file (RFC 1952; {@code gzip -d},
 * {@code mongoimport --gzip} and Java's {@code GZIPInputStream} read them all), as {@code pigz} makes;
 * with zstd each chunk is one frame, and concatenated frames are one valid {@code .zst} file.
 * At most two chunks per thread are in flight, so memory stays bounded whatever the dataset's size.
 *
 * <p>The decompressed bytes do not depend on the compression, the number of threads, the level or the
 * chunk size.
 */
public final class DatasetExport {
  /** How the chunks are compressed, with the levels each accepts. */
  public enum Compression {
    NONE(0, 0, 0),
    /**
     * Deflate levels 1 (fastest) to 9 (smallest). The default is 1, not gzip's 6: the export is bound by
     * deflate, and level 1 takes about half the CPU time of level 6 for a file about 30% larger; the
     * dataset is thrown away once imported, so the time is what counts.
     */
    GZIP(Deflater.BEST_SPEED, Deflater.BEST_COMPRESSION, Deflater.BEST_SPEED),
    /** zstd levels 1 to 19; zstd's default is 3. */
    ZSTD(1, 19, 3);

    private final int minLevel;
    private final int maxLevel;
    private final int defaultLevel;

    Compression(int minLevel, int maxLevel, int defaultLevel) {
      this.minLevel = minLevel;
      this.maxLevel = maxLevel;
      this.defaultLevel = defaultLevel;
    }

    public int minLevel() {
      return minLevel;
    }

    public int maxLevel() {
      return maxLevel;
    }

    public int defaultLevel() {
      return defaultLevel;
    }

    /** By the file's name: {@code .gz}, {@code .zst}, anything else uncompressed. */
    public static Compression of(String fileName) {
      return fileName.endsWith(".gz") ? GZIP : fileName.endsWith(".zst") ? ZSTD : NONE;
    }
  }

  /**
   * Restaurants per chunk: about 500 kB of JSON, large enough that a gzip member's header, trailer and
   * fresh dictionary cost next to nothing (well under 1% of the size), small enough that the chunk's
   * buffers stay ordinary young objects (a G1 region holds them: megabyte buffers were "humongous",
   * allocated in the old generation, and the collections they caused cost more than the compression).
   */
  public static final int DEFAULT_CHUNK = 2_048;

  private final Compression compression;
  private final int threads;
  private final int level;
  private final int chunk;

  /**
   * @param compression how chunks are compressed
   * @param level a level of that compression (ignored with {@link Compression#NONE})
   * @param threads generating and compressing threads, at least 1
   * @param chunk restaurants per chunk, at least 1
   */
  public DatasetExport(Compression compression, int level, int threads, int chunk) {
    if (threads < 1 || chunk < 1) {
      throw new IllegalArgumentException("threads and chunk must be at least 1: " + threads + ", " + chunk);
    }
    if (compression != Compression.NONE && (level < compression.minLevel() || level > compression.maxLevel())) {
      throw new IllegalArgumentException(compression + " level must be " + compression.minLevel() + " to "
          + compression.maxLevel() + ": " + level);
    }
    this.compression = compression;
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
    ThreadLocal<StringBuilder> buffers = ThreadLocal.withInitial(() -> new StringBuilder(chunk * 300));
    try {
      ArrayDeque<Future<byte[]>> inFlight = new ArrayDeque<>();
      long next = 0;
      while (next < size || !inFlight.isEmpty()) {
        while (next < size && inFlight.size() < 2 * threads) {
          long from = next;
          long to = Math.min(size, from + chunk);
          inFlight.add(pool.submit(() -> encode(dataset, from, to, buffers.get())));
          next = to;
        }
        out.write(await(inFlight.poll()));
      }
      return size;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Restaurants [from, to) as JSON lines, compressed as one gzip member or one zstd frame. {@code text} is
   * the calling thread's own buffer, reused from chunk to chunk so that it does not grow again each time.
   */
  private byte[] encode(RestaurantDataset dataset, long from, long to, StringBuilder text) throws IOException {
    text.setLength(0);
    for (long k = from; k < to; k++) {
      RestaurantJson.append(dataset.restaurant(k), text);
      text.append('\n');
    }
    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    return switch (compression) {
      case NONE -> bytes;
      case ZSTD -> Zstd.compress(bytes, level);
      case GZIP -> {
        ByteArrayOutputStream member = new ByteArrayOutputStream(bytes.length / 4);
        try (GZIPOutputStream gzip = new LeveledGzip(member, level)) {
          gzip.write(bytes);
        }
        yield member.toByteArray();
      }
    };
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
