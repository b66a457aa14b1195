package org.geoshard.harness.api;

import java.util.Properties;
import java.util.SplittableRandom;

/**
 * Derives every random stream of a run from the one {@code seed} property, so that the same seed
 * gives the same choices in every thread. Streams are told apart by a purpose and an index.
 */
public final class Seeds {
  /** The property that seeds a run. */
  public static final String SEED = "seed";
  /** The seed when none is given: runs are reproducible by default. */
  public static final long DEFAULT_SEED = 1L;

  private Seeds() {
  }

  /**
   * The run's seed: the {@code seed} property, or {@link #DEFAULT_SEED}; read as the harness's
   * {@code RunSettings} reads it (digits may be grouped with '_'), so that both agree on every value.
   */
  public static long runSeed(Properties properties) {
    String value = properties.getProperty(SEED);
    if (value == null || value.isBlank()) {
      return DEFAULT_SEED;
    }
    try {
      return Long.parseLong(value.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Property 'seed' must be a whole number, but is '" + value + "'.", e);
    }
  }

  /** A seed for one purpose and index, well mixed so that neighbouring indexes are unrelated. */
  public static long derive(long seed, String purpose, long index) {
    return at(stream(seed, purpose), index);
  }

  /** The base of a family of seeds for one purpose; {@link #at} picks one member cheaply. */
  public static long stream(long seed, String purpose) {
    long h = mix(seed ^ 0x9E3779B97F4A7C15L);
    for (int i = 0; i < purpose.length(); i++) {
      h = mix(h ^ purpose.charAt(i));
    }
    return h;
  }

  /** Member {@code index} of a family made by {@link #stream}. */
  public static long at(long stream, long index) {
    return mix(stream ^ mix(index + 0x632BE59BD9B4E019L));
  }

  /** The random stream of one thread of a workload. */
  public static SplittableRandom forThread(Properties properties, String purpose, int threadId) {
    return forThread(runSeed(properties), purpose, threadId);
  }

  /** The random stream of one thread of a workload, from the run's seed its settings read. */
  public static SplittableRandom forThread(long runSeed, String purpose, int threadId) {
    return new SplittableRandom(derive(runSeed, purpose, threadId));
  }

  /** SplitMix64's finaliser (Steele, Lea and Flood), a bijection that mixes all bits. */
  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
