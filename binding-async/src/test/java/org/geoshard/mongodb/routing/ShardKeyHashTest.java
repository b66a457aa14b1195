package org.geoshard.mongodb.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDbPointer;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonJavaScript;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonSymbol;
import org.bson.BsonTimestamp;
import org.bson.BsonUndefined;
import org.bson.BsonValue;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** MongoDB's hashed shard key values: the server's published vectors, every BSON type, and properties. */
class ShardKeyHashTest {

  private static BsonValue json(String extendedJson) {
    return ShardHashCommand.parse(extendedJson);
  }

  /** MongoDB's own unit tests (hasher_test.cpp, the startup check in hasher.cpp). */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "42 | -944302157085130861",
      "1 | 5902408780260971510",
      "\"abc\" | 8478485326885698097",
      "\"\" | 2049396243249673340",
      "{\"$oid\": \"010203040506070809101112\"} | -5588663249627035708",
      "{} | 7980500913326740417"})
  void publishedVectors(String value, long expected) {
    assertThat(ShardKeyHash.hash(json(value))).isEqualTo(expected);
  }

  @Test
  void everyNumericTypeHashesAsItsTruncatedInt64() {
    long h = ShardKeyHash.hash(new BsonInt32(42));
    assertThat(ShardKeyHash.hash(new BsonInt64(42))).isEqualTo(h);
    assertThat(ShardKeyHash.hash(new BsonDouble(42.0))).isEqualTo(h);
    assertThat(ShardKeyHash.hash(new BsonDouble(42.99))).isEqualTo(h);
    assertThat(ShardKeyHash.hash(new BsonDecimal128(Decimal128.parse("42")))).isEqualTo(h);
    assertThat(ShardKeyHash.hash(new BsonDouble(-42.7))).isEqualTo(ShardKeyHash.hash(new BsonInt64(-42)));
  }

  @Test
  void troublesomeNumbersFollowSafeNumberLongForHash() {
    assertThat(ShardKeyHash.numberForHash(new BsonDouble(Double.NaN))).isZero();
    assertThat(ShardKeyHash.numberForHash(new BsonDouble(0x1p63))).isEqualTo(Long.MIN_VALUE);  // kept from old versions
    assertThat(ShardKeyHash.numberForHash(new BsonDouble(Math.nextUp(0x1p63)))).isEqualTo(Long.MAX_VALUE);
    assertThat(ShardKeyHash.numberForHash(new BsonDouble(Math.nextDown(0x1p63)))).isEqualTo(0x7ffffffffffffc00L);
    assertThat(ShardKeyHash.numberForHash(new BsonDouble(Double.POSITIVE_INFINITY))).isEqualTo(Long.MAX_VALUE);
    assertThat(ShardKeyHash.numberForHash(new BsonDouble(Double.NEGATIVE_INFINITY))).isEqualTo(Long.MIN_VALUE);
    assertThat(ShardKeyHash.numberForHash(new BsonDouble(-0x1p63))).isEqualTo(Long.MIN_VALUE);
    assertThat(ShardKeyHash.numberForHash(new BsonDouble(Math.nextDown(-0x1p63)))).isEqualTo(Long.MIN_VALUE);
    assertThat(ShardKeyHash.numberForHash(new BsonDouble(-0.0))).isZero();
    // Decimal128::toLong rounds half to even; NaN is 0; out of range clamps.
    assertThat(ShardKeyHash.numberForHash(dec("2.5"))).isEqualTo(2);
    assertThat(ShardKeyHash.numberForHash(dec("3.5"))).isEqualTo(4);
    assertThat(ShardKeyHash.numberForHash(dec("-2.7"))).isEqualTo(-3);
    assertThat(ShardKeyHash.numberForHash(dec("NaN"))).isZero();
    assertThat(ShardKeyHash.numberForHash(dec("-0"))).isZero();
    assertThat(ShardKeyHash.numberForHash(dec("Infinity"))).isEqualTo(Long.MAX_VALUE);
    assertThat(ShardKeyHash.numberForHash(dec("-Infinity"))).isEqualTo(Long.MIN_VALUE);
    assertThat(ShardKeyHash.numberForHash(dec("9223372036854775807.5"))).isEqualTo(Long.MAX_VALUE);
    assertThat(ShardKeyHash.numberForHash(dec("-9223372036854775808.4"))).isEqualTo(Long.MIN_VALUE);
    assertThat(ShardKeyHash.numberForHash(dec("1E+30"))).isEqualTo(Long.MAX_VALUE);
  }

  private static BsonDecimal128 dec(String text) {
    return new BsonDecimal128(Decimal128.parse(text));
  }

  /** One value of every BSON type a shard key can hold, nested ones included. */
  static List<BsonValue> everyType() {
    BsonDocument nested = new BsonDocument("a", new BsonInt32(1)).append("b", new BsonArray(List.of(new BsonString("x"),
        new BsonDocument("c", BsonNull.VALUE))));
    return List.of(
        new BsonMinKey(), new BsonMaxKey(), BsonNull.VALUE, new BsonUndefined(),
        new BsonInt32(-7), new BsonInt64(1L << 40), new BsonDouble(3.75), new BsonDouble(Double.NaN), dec("12.5"),
        new BsonString("Zürich ☕"), new BsonSymbol("sym"), new BsonString(""),
        nested, new BsonDocument(), new BsonArray(List.of(new BsonInt32(1), new BsonInt64(2))), new BsonArray(),
        new BsonBinary(new byte[] {1, 2, 3}), new BsonBinary(BsonBinarySubType.UUID_STANDARD, new byte[16]),
        new BsonBinary(BsonBinarySubType.OLD_BINARY, new byte[] {9, 8, 7}), new BsonBinary((byte) 0x80, new byte[0]),
        new BsonObjectId(new ObjectId("65a0b1000000000000000abc")),
        BsonBoolean.TRUE, BsonBoolean.FALSE,
        new BsonDateTime(1_700_000_000_123L), new BsonDateTime(-1),
        new BsonTimestamp(1_700_000_000, 42),
        new BsonRegularExpression("^ab+c$", "mi"),
        new BsonDbPointer("ycsb.usertable", new ObjectId("010203040506070809101112")),
        new BsonJavaScript("function () { return 1; }"),
        new BsonJavaScriptWithScope("x + y", new BsonDocument("x", new BsonInt32(1)).append("y", new BsonString("2"))));
  }

  @Test
  void everyTypeAgreesWithTheRawBsonWalk() throws Exception {
    for (BsonValue v : everyType()) {
      assertThat(ShardKeyHash.hash(v)).as("%s", v).isEqualTo(RawBsonHasher.hash(v));
    }
  }

  @Test
  void randomDocumentsAgreeWithTheRawBsonWalk() throws Exception {
    Random random = new Random(8);
    for (int i = 0; i < 500; i++) {
      BsonValue v = randomValue(random, 3);
      assertThat(ShardKeyHash.hash(v)).as("%s", v).isEqualTo(RawBsonHasher.hash(v));
    }
  }

  static BsonValue randomValue(Random random, int depth) {
    int kind = random.nextInt(depth > 0 ? 12 : 10);
    return switch (kind) {
      case 0 -> new BsonInt32(random.nextInt());
      case 1 -> new BsonInt64(random.nextLong());
      case 2 -> new BsonDouble(random.nextGaussian() * 1e6);
      case 3 -> new BsonString(Long.toString(random.nextLong(), 36));
      case 4 -> new BsonObjectId(new ObjectId());
      case 5 -> BsonBoolean.valueOf(random.nextBoolean());
      case 6 -> new BsonDateTime(random.nextLong() >> 20);
      case 7 -> new BsonBinary((byte) random.nextInt(9), bytes(random));
      case 8 -> BsonNull.VALUE;
      case 9 -> new BsonDecimal128(new Decimal128(new java.math.BigDecimal(random.nextInt()).movePointLeft(random.nextInt(4))));
      case 10 -> {
        BsonDocument d = new BsonDocument();
        int n = random.nextInt(4);
        for (int k = 0; k < n; k++) {
          d.append("f" + random.nextInt(100), randomValue(random, depth - 1));
        }
        yield d;
      }
      default -> {
        List<BsonValue> items = new ArrayList<>();
        int n = random.nextInt(4);
        for (int k = 0; k < n; k++) {
          items.add(randomValue(random, depth - 1));
        }
        yield new BsonArray(items);
      }
    };
  }

  private static byte[] bytes(Random random) {
    byte[] b = new byte[random.nextInt(20)];
    random.nextBytes(b);
    return b;
  }

  @Test
  void typesFieldNamesAndOrderAllCount() {
    Set<Long> hashes = new HashSet<>();
    for (BsonValue v : everyType()) {
      hashes.add(ShardKeyHash.hash(v));
    }
    // MinKey/MaxKey/null/undefined hash apart (their canonical types differ except undefined vs EOO).
    assertThat(hashes).hasSize(everyType().size());
    assertThat(ShardKeyHash.hash(new BsonString("42"))).isNotEqualTo(ShardKeyHash.hash(new BsonInt32(42)));
    assertThat(ShardKeyHash.hash(json("{\"a\": 1}"))).isNotEqualTo(ShardKeyHash.hash(json("{\"b\": 1}")));
    assertThat(ShardKeyHash.hash(json("{\"a\": 1, \"b\": 2}"))).isNotEqualTo(ShardKeyHash.hash(json("{\"b\": 2, \"a\": 1}")));
    assertThat(ShardKeyHash.hash(json("[1]"))).isNotEqualTo(ShardKeyHash.hash(json("{\"0\": 1}")));
    assertThat(ShardKeyHash.hash(json("{\"a\": 1}"))).isEqualTo(ShardKeyHash.hash(json("{\"a\": 1.5}")));
    assertThat(ShardKeyHash.hash(new BsonSymbol("abc"))).isEqualTo(ShardKeyHash.hash(new BsonString("abc")));
  }

  @Test
  void deterministicAcrossThreads() throws Exception {
    List<BsonValue> values = everyType();
    long[] expected = values.stream().mapToLong(ShardKeyHash::hash).toArray();
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread thread = new Thread(() -> {
        for (int round = 0; round < 200; round++) {
          for (int i = 0; i < values.size(); i++) {
            if (ShardKeyHash.hash(values.get(i)) != expected[i]) {
              failures.add(new AssertionError("differs: " + values.get(i)));
            }
          }
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(failures).isEmpty();
  }

  @Test
  void hashesSpreadOverTheThreeHashedChunksOfAThreeShardPresplit() {
    // 8.0 presplits a hashed key over 3 shards at +-3074457345618258602: YCSB keys land about a third each.
    int[] counts = new int[3];
    for (int i = 0; i < 30_000; i++) {
      long h = ShardKeyHash.hash(new BsonString("user" + i));
      counts[h < -3074457345618258602L ? 0 : h < 3074457345618258602L ? 1 : 2]++;
    }
    for (int c : counts) {
      assertThat(c).isBetween(9_500, 10_500);
    }
  }

  @Test
  void extendedJsonRoundTripKeepsTheHash() {
    for (BsonValue v : everyType()) {
      String text = new BsonDocument("v", v).toJson(org.bson.json.JsonWriterSettings.builder()
          .outputMode(org.bson.json.JsonMode.EXTENDED).build());
      BsonValue back = BsonDocument.parse(text).get("v");
      assertThat(ShardKeyHash.hash(back)).as(text).isEqualTo(ShardKeyHash.hash(v));
    }
  }
}
