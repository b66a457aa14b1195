package org.geoshard.mongodb;

/**
 * The kinds of request the bindings send: what a request path counts them under, and whether the
 * request carries a shard key value a router could be chosen by ({@code keyless} ones go to the
 * default router).
 */
public enum Op {
  INSERT(false), READ(false), UPDATE(false), DELETE(false), SCAN(true), GEO_INSERT(false), GEO_NEAR(true),
  HISTORY_INSERT(false), LKL_UPSERT(false), LKL_READ(false), HISTORY_RANGE(false), LKL_NEAR(true);

  public static final Op[] ALL = values();

  private final boolean keyless;

  Op(boolean keyless) {
    this.keyless = keyless;
  }

  /** True for a request without a shard key value (a scan, a near query). */
  public boolean keyless() {
    return keyless;
  }
}
