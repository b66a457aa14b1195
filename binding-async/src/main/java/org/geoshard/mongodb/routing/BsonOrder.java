package org.geoshard.mongodb.routing;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonDbPointer;
import org.bson.BsonDocument;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonRegularExpression;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.types.Decimal128;

/**
 * MongoDB's order of BSON values ({@code BSONElement::woCompare} with the simple collation), the order
 * of shard key values and chunk bounds: first by canonical type (MinKey &lt; undefined = EOO &lt; null
 * &lt; numbers &lt; strings and symbols &lt; objects &lt; arrays &lt; BinData &lt; ObjectId &lt; bool &lt;
 * date &lt; timestamp &lt; regex &lt; DBPointer &lt; code &lt; code with scope &lt; MaxKey), then by value:
 * numbers by numeric value whatever their type (NaN below every number), strings by their UTF-8 bytes,
 * documents and arrays element by element (type, field name, value; the shorter first), BinData by
 * length, then subtype and bytes, timestamps unsigned, dates signed. Pure and thread-safe.
 */
public final class BsonOrder implements Comparator<BsonValue> {
  public static final BsonOrder INSTANCE = new BsonOrder();
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final MathContext DECIMAL34 = new MathContext(34, RoundingMode.HALF_EVEN);

  private BsonOrder() {
  }

  /** MongoDB's canonical type of a BSON type ({@code canonicalizeBSONType}); also the hash's type tag. */
  public static int canonicalType(BsonType type) {
    return switch (type) {
      case MIN_KEY -> -1;
      case MAX_KEY -> 127;
      case END_OF_DOCUMENT, UNDEFINED -> 0;
      case NULL -> 5;
      case DOUBLE, INT32, INT64, DECIMAL128 -> 10;
      case STRING, SYMBOL -> 15;
      case DOCUMENT -> 20;
      case ARRAY -> 25;
      case BINARY -> 30;
      case OBJECT_ID -> 35;
      case BOOLEAN -> 40;
      case DATE_TIME -> 45;
      case TIMESTAMP -> 47;
      case REGULAR_EXPRESSION -> 50;
      case DB_POINTER -> 55;
      case JAVASCRIPT -> 60;
      case JAVASCRIPT_WITH_SCOPE -> 65;
    };
  }

  @Override
  public int compare(BsonValue a, BsonValue b) {
    BsonType ta = a.getBsonType();
    BsonType tb = b.getBsonType();
    if (ta != tb) {
      int diff = canonicalType(ta) - canonicalType(tb);
      if (diff != 0) {
        return diff < 0 ? -1 : 1;
      }
    }
    return sign(compareSameCanonical(ta, a, b));
  }

  /** Two shard key values (or chunk bounds) of the same key pattern, field by field. */
  public int compare(BsonValue[] a, BsonValue[] b) {
    int n = Math.min(a.length, b.length);
    for (int i = 0; i < n; i++) {
      int c = compare(a[i], b[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.length, b.length);
  }

  private static int sign(int c) {
    return Integer.signum(c);
  }

  private int compareSameCanonical(BsonType type, BsonValue a, BsonValue b) {
    switch (type) {
      case MIN_KEY, MAX_KEY, NULL, UNDEFINED, END_OF_DOCUMENT:
        return 0;
      case DOUBLE, INT32, INT64, DECIMAL128:
        return compareNumbers(a, b);
      case STRING, SYMBOL:
        return compareBytes(utf8(a), utf8(b));
      case DOCUMENT:
        return compareDocuments(a.asDocument(), b.asDocument());
      case ARRAY:
        return compareArrays(a.asArray(), b.asArray());
      case BINARY: {
        BsonBinary x = a.asBinary();
        BsonBinary y = b.asBinary();
        byte[] dx = BsonValues.binaryPayload(x);
        byte[] dy = BsonValues.binaryPayload(y);
        if (dx.length != dy.length) {
          return Integer.compare(dx.length, dy.length);
        }
        int c = Integer.compare(x.getType() & 0xff, y.getType() & 0xff);
        return c != 0 ? c : compareBytes(dx, dy);
      }
      case OBJECT_ID:
        return compareBytes(a.asObjectId().getValue().toByteArray(), b.asObjectId().getValue().toByteArray());
      case BOOLEAN:
        return Boolean.compare(a.asBoolean().getValue(), b.asBoolean().getValue());
      case DATE_TIME:
        return Long.compare(a.asDateTime().getValue(), b.asDateTime().getValue());
      case TIMESTAMP:
        return Long.compareUnsigned(a.asTimestamp().getValue(), b.asTimestamp().getValue());
      case REGULAR_EXPRESSION: {
        BsonRegularExpression x = a.asRegularExpression();
        BsonRegularExpression y = b.asRegularExpression();
        int c = compareBytes(x.getPattern().getBytes(StandardCharsets.UTF_8), y.getPattern().getBytes(StandardCharsets.UTF_8));
        return c != 0 ? c : compareBytes(x.getOptions().getBytes(StandardCharsets.UTF_8),
            y.getOptions().getBytes(StandardCharsets.UTF_8));
      }
      case DB_POINTER: {
        // The server compares the value sizes, then the raw values (length, namespace, NUL, ObjectId).
        BsonDbPointer x = a.asDBPointer();
        BsonDbPointer y = b.asDBPointer();
        byte[] nx = x.getNamespace().getBytes(StandardCharsets.UTF_8);
        byte[] ny = y.getNamespace().getBytes(StandardCharsets.UTF_8);
        if (nx.length != ny.length) {
          return Integer.compare(nx.length, ny.length);
        }
        int c = compareBytes(nx, ny);
        return c != 0 ? c : compareBytes(x.getId().toByteArray(), y.getId().toByteArray());
      }
      case JAVASCRIPT:
        return compareBytes(a.asJavaScript().getCode().getBytes(StandardCharsets.UTF_8),
            b.asJavaScript().getCode().getBytes(StandardCharsets.UTF_8));
      case JAVASCRIPT_WITH_SCOPE: {
        BsonJavaScriptWithScope x = a.asJavaScriptWithScope();
        BsonJavaScriptWithScope y = b.asJavaScriptWithScope();
        int c = compareBytes(x.getCode().getBytes(StandardCharsets.UTF_8), y.getCode().getBytes(StandardCharsets.UTF_8));
        return c != 0 ? c : compareDocuments(x.getScope(), y.getScope());
      }
      default:
        throw new IllegalArgumentException("not comparable: " + type);
    }
  }

  private static byte[] utf8(BsonValue v) {
    String s = v.isString() ? v.asString().getValue() : v.asSymbol().getSymbol();
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** memcmp, then the shorter first. */
  static int compareBytes(byte[] x, byte[] y) {
    return java.util.Arrays.compareUnsigned(x, y);
  }

  private int compareDocuments(BsonDocument x, BsonDocument y) {
    Iterator<Map.Entry<String, BsonValue>> i = x.entrySet().iterator();
    Iterator<Map.Entry<String, BsonValue>> j = y.entrySet().iterator();
    while (true) {
      if (!i.hasNext()) {
        return j.hasNext() ? -1 : 0;
      }
      if (!j.hasNext()) {
        return 1;
      }
      Map.Entry<String, BsonValue> l = i.next();
      Map.Entry<String, BsonValue> r = j.next();
      int c = compareElement(l.getKey(), l.getValue(), r.getKey(), r.getValue());
      if (c != 0) {
        return c;
      }
    }
  }

  private int compareArrays(BsonArray x, BsonArray y) {
    int n = Math.min(x.size(), y.size());
    for (int k = 0; k < n; k++) {
      // Same index, same field name: only type and value decide.
      int c = compare(x.get(k), y.get(k));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.size(), y.size());
  }

  /** {@code BSONElement::woCompare} with field names: canonical type, then name, then value. */
  private int compareElement(String ln, BsonValue lv, String rn, BsonValue rv) {
    if (lv.getBsonType() != rv.getBsonType()) {
      int diff = canonicalType(lv.getBsonType()) - canonicalType(rv.getBsonType());
      if (diff != 0) {
        return diff;
      }
    }
    int c = compareBytes(ln.getBytes(StandardCharsets.UTF_8), rn.getBytes(StandardCharsets.UTF_8));
    if (c != 0) {
      return c;
    }
    return compareSameCanonical(lv.getBsonType(), lv, rv);
  }

  // ---- numbers: by value across int32, int64, double and decimal128; NaN below every number ----

  static int compareNumbers(BsonValue a, BsonValue b) {
    BsonType ta = a.getBsonType();
    BsonType tb = b.getBsonType();
    boolean integralA = ta == BsonType.INT32 || ta == BsonType.INT64;
    boolean integralB = tb == BsonType.INT32 || tb == BsonType.INT64;
    if (integralA && integralB) {
      return Long.compare(a.asNumber().longValue(), b.asNumber().longValue());
    }
    if (ta == BsonType.DOUBLE && tb == BsonType.DOUBLE) {
      return compareDoubles(a.asDouble().getValue(), b.asDouble().getValue());
    }
    boolean nanA = isNaN(a);
    boolean nanB = isNaN(b);
    if (nanA || nanB) {
      return nanA && nanB ? 0 : nanA ? -1 : 1;
    }
    int infA = infinity(a);
    int infB = infinity(b);
    if (infA != 0 || infB != 0) {
      return Integer.compare(infA, infB);
    }
    boolean decimal = ta == BsonType.DECIMAL128 || tb == BsonType.DECIMAL128;
    return exact(a, decimal).compareTo(exact(b, decimal));
  }

  private static int compareDoubles(double x, double y) {
    if (x < y) {
      return -1;
    }
    if (x == y) {
      return 0;
    }
    if (x > y) {
      return 1;
    }
    return Double.isNaN(x) ? (Double.isNaN(y) ? 0 : -1) : 1;
  }

  private static boolean isNaN(BsonValue v) {
    return switch (v.getBsonType()) {
      case DOUBLE -> Double.isNaN(v.asDouble().getValue());
      case DECIMAL128 -> v.asDecimal128().getValue().isNaN();
      default -> false;
    };
  }

  /** -1 for negative infinity, 1 for positive, 0 for a finite number. */
  private static int infinity(BsonValue v) {
    return switch (v.getBsonType()) {
      case DOUBLE -> Double.isInfinite(v.asDouble().getValue()) ? (v.asDouble().getValue() > 0 ? 1 : -1) : 0;
      case DECIMAL128 -> {
        Decimal128 d = v.asDecimal128().getValue();
        yield d.isInfinite() ? (d.isNegative() ? -1 : 1) : 0;
      }
      default -> 0;
    };
  }

  /**
   * The exact value of a finite number. Against a decimal, a double counts as rounded to 34 digits, as
   * the server converts it ({@code Decimal128(double, kRoundTo34Digits)}) before comparing.
   */
  private static BigDecimal exact(BsonValue v, boolean againstDecimal) {
    return switch (v.getBsonType()) {
      case INT32 -> BigDecimal.valueOf(v.asInt32().getValue());
      case INT64 -> BigDecimal.valueOf(v.asInt64().getValue());
      case DOUBLE -> againstDecimal ? new BigDecimal(v.asDouble().getValue()).round(DECIMAL34)
          : new BigDecimal(v.asDouble().getValue());
      case DECIMAL128 -> BsonValues.finiteDecimal(v.asDecimal128().getValue());
      default -> LONG_MIN;
    };
  }

  /** True for the subtype whose payload carries an extra length (old binary, subtype 2). */
  static boolean oldBinary(BsonBinary binary) {
    return binary.getType() == BsonBinarySubType.OLD_BINARY.getValue();
  }
}
