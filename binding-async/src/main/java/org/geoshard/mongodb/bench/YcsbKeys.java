package org.geoshard.mongodb.bench;

import site.ycsb.Utils;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * The keys workload C reads, for the bare loop: YCSB's scrambled zipfian over the loaded records and
 * CoreWorkload's key names ({@code "user"} + the record number's FNV hash, no padding, as
 * {@code CoreWorkload.buildKeyName} with its defaults). One per thread: CoreWorkload shares one
 * generator, which costs the harness run a little, never the bare loop. YCSB's generators draw from
 * {@code ThreadLocalRandom} and take no seed.
 */
final class YcsbKeys {
  private final ScrambledZipfianGenerator chooser;

  YcsbKeys(long records) {
    this.chooser = new ScrambledZipfianGenerator(0, records - 1);
  }

  String next() {
    return name(chooser.nextValue());
  }

  static String name(long record) {
    return "user" + Utils.hash(record);
  }
}
