package org.geoshard.mongodb.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.bson.BsonBinary;
import org.bson.BsonDecimal128;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.types.Decimal128;
import org.junit.jupiter.api.Test;

/** MongoDB's BSON order, which chunk bounds and shard key values are compared in. */
class BsonOrderTest {
  private static final BsonOrder ORDER = BsonOrder.INSTANCE;

  private static BsonValue v(String json) {
    return ShardHashCommand.parse(json);
  }

  @Test
  void canonicalTypesComeInTheServersOrder() {
    List<BsonValue> ascending = List.of(new BsonMinKey(), v("{\"$undefined\": true}"), v("null"), v("-1e300"), v("5"),
        v("\"\""), v("\"a\""), v("{}"), v("{\"a\": 1}"), v("[]"), v("{\"$binary\": {\"base64\": \"\", \"subType\": \"00\"}}"),
        v("{\"$oid\": \"000000000000000000000000\"}"), v("false"), v("true"), v("{\"$date\": 0}"),
        v("{\"$timestamp\": {\"t\": 0, \"i\": 1}}"), v("{\"$regularExpression\": {\"pattern\": \"a\", \"options\": \"\"}}"),
        v("{\"$dbPointer\": {\"$ref\": \"a.b\", \"$id\": {\"$oid\": \"000000000000000000000000\"}}}"),
        v("{\"$code\": \"x\"}"), v("{\"$code\": \"x\", \"$scope\": {}}"), new BsonMaxKey());
    for (int i = 0; i + 1 < ascending.size(); i++) {
      assertThat(ORDER.compare(ascending.get(i), ascending.get(i + 1))).as("%s < %s", ascending.get(i), ascending.get(i + 1))
          .isNegative();
    }
  }

  @Test
  void numbersCompareByValueAcrossTypes() {
    assertThat(ORDER.compare(new BsonInt32(5), new BsonDouble(5.0))).isZero();
    assertThat(ORDER.compare(new BsonInt64(5), new BsonDecimal128(Decimal128.parse("5.00")))).isZero();
    assertThat(ORDER.compare(new BsonDouble(4.5), new BsonInt32(5))).isNegative();
    assertThat(ORDER.compare(new BsonInt64(Long.MAX_VALUE), new BsonDouble(0x1p63))).isNegative();
    assertThat(ORDER.compare(new BsonInt64(Long.MAX_VALUE - 1), new BsonInt64(Long.MAX_VALUE))).isNegative();
    assertThat(ORDER.compare(new BsonInt64((1L << 53) + 1), new BsonDouble(0x1p53))).isPositive();  // exact, not via double
    assertThat(ORDER.compare(new BsonDouble(Double.NaN), new BsonDouble(Double.NEGATIVE_INFINITY))).isNegative();
    assertThat(ORDER.compare(new BsonDouble(Double.NaN), new BsonDecimal128(Decimal128.NaN))).isZero();
    assertThat(ORDER.compare(new BsonDouble(Double.POSITIVE_INFINITY), new BsonDecimal128(Decimal128.POSITIVE_INFINITY))).isZero();
    assertThat(ORDER.compare(new BsonDouble(-0.0), new BsonInt32(0))).isZero();
    assertThat(ORDER.compare(new BsonDecimal128(Decimal128.NEGATIVE_ZERO), new BsonInt32(0))).isZero();
  }

  @Test
  void stringsCompareByUtf8BytesAndShorterFirst() {
    assertThat(ORDER.compare(new BsonString("ab"), new BsonString("abc"))).isNegative();
    assertThat(ORDER.compare(new BsonString("Z"), new BsonString("a"))).isNegative();
    assertThat(ORDER.compare(new BsonString("z"), new BsonString("é"))).isNegative();  // 0x7a < 0xc3
    assertThat(ORDER.compare(new BsonString("\uffff"), new BsonString("\uD83D\uDE00"))).isNegative();  // UTF-8, not UTF-16
    assertThat(ORDER.compare(new BsonString("user10"), new BsonString("user9"))).isNegative();
  }

  @Test
  void documentsArraysAndBinaries() {
    assertThat(ORDER.compare(v("{\"a\": 1}"), v("{\"b\": 0}"))).isNegative();  // field name before value
    assertThat(ORDER.compare(v("{\"a\": \"x\"}"), v("{\"a\": 1}"))).isPositive();  // type before name
    assertThat(ORDER.compare(v("{\"a\": 1}"), v("{\"a\": 1, \"b\": 1}"))).isNegative();
    assertThat(ORDER.compare(v("[1, 2]"), v("[1, 3]"))).isNegative();
    assertThat(ORDER.compare(v("[2]"), v("[1, 3]"))).isPositive();
    assertThat(ORDER.compare(new BsonBinary(new byte[] {9}), new BsonBinary(new byte[] {1, 1}))).isNegative();  // length first
    assertThat(ORDER.compare(new BsonBinary((byte) 0, new byte[] {9}), new BsonBinary((byte) 4, new byte[] {1}))).isNegative();
    assertThat(ORDER.compare(new BsonTimestamp(0xffffffffL << 32), new BsonTimestamp(1L))).isPositive();  // unsigned
    assertThat(ORDER.compare(v("{\"$date\": -1}"), v("{\"$date\": 0}"))).isNegative();  // signed
  }

  @Test
  void compoundKeysCompareFieldByField() {
    BsonValue[] lyonMin = {new BsonString("Lyon"), new BsonMinKey()};
    BsonValue[] lyon5 = {new BsonString("Lyon"), new BsonInt64(5)};
    BsonValue[] lyonMax = {new BsonString("Lyon"), new BsonMaxKey()};
    BsonValue[] paris = {new BsonString("Paris"), new BsonMinKey()};
    assertThat(ORDER.compare(lyonMin, lyon5)).isNegative();
    assertThat(ORDER.compare(lyon5, lyonMax)).isNegative();
    assertThat(ORDER.compare(lyonMax, paris)).isNegative();
  }

  @Test
  void isATotalOrderOnRandomValues() {
    Random random = new Random(3);
    List<BsonValue> values = new ArrayList<>(ShardKeyHashTest.everyType());
    for (int i = 0; i < 150; i++) {
      values.add(ShardKeyHashTest.randomValue(random, 2));
    }
    for (BsonValue a : values) {
      assertThat(ORDER.compare(a, a)).isZero();
      for (BsonValue b : values) {
        int ab = ORDER.compare(a, b);
        assertThat(Integer.signum(ab)).isEqualTo(-Integer.signum(ORDER.compare(b, a)));
      }
    }
    List<BsonValue> sorted = new ArrayList<>(values);
    sorted.sort(ORDER);
    for (int i = 0; i + 1 < sorted.size(); i++) {
      for (int j = i + 1; j < sorted.size(); j += 7) {
        assertThat(ORDER.compare(sorted.get(i), sorted.get(j))).isLessThanOrEqualTo(0);
      }
    }
  }
}
