package org.geoshard.mongodb.routing;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Map;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDbPointer;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonRegularExpression;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.types.Decimal128;

/**
 * MongoDB's hash of a hashed shard key value ({@code BSONElementHasher::hash64} in
 * {@code src/mongo/db/hasher.cpp}, seed 0), the value {@code convertShardKeyToHashed} prints and
 * {@code config.chunks} bounds of a hashed key hold.
 *
 * <p>MD5 over: the seed as int32 little-endian; then, recursively for the value: its canonical type
 * ({@link BsonOrder#canonicalType}) as int32 little-endian; for an element inside a document or array
 * its field name with its terminating NUL; then the value:
 * <ul>
 *   <li>numbers (int32, int64, double, decimal128) as int64 little-endian after
 *       {@code safeNumberLongForHash}: doubles truncated toward zero, NaN as 0, out of range clamped
 *       (except 2^63 exactly, which gives -2^63 as it always has); decimals rounded half to even, NaN
 *       as 0, out of range clamped;</li>
 *   <li>documents, arrays (field names "0", "1", ...) and the scope of code with scope: each element
 *       as above, then the end-of-object element (canonical type 0, no name, no value); code with
 *       scope first adds its code with its NUL;</li>
 *   <li>every other type: its value bytes as BSON stores them (string, symbol and code: int32 length,
 *       UTF-8, NUL; BinData: int32 length, subtype, data; ObjectId: 12 bytes; bool: 1 byte; date:
 *       int64; timestamp: uint64; regex: pattern and options, each with NUL; DBPointer: namespace as a
 *       string, then the ObjectId; null, undefined, MinKey, MaxKey: nothing).</li>
 * </ul>
 * The first 8 bytes of the digest, read as a little-endian signed long, are the hash. Thread-safe (one
 * digest and buffer per thread); no allocation beyond a string's UTF-8 bytes for the usual values.
 */
public final class ShardKeyHash {
  /** MongoDB's hash seed for hashed indexes and shard keys. */
  public static final int SEED = 0;
  private static final double TWO_TO_63 = 0x1p63;
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final ThreadLocal<Hasher> HASHERS = ThreadLocal.withInitial(Hasher::new);

  private ShardKeyHash() {
  }

  /** The hashed value of {@code value}, as a hashed index or shard key stores it. */
  public static long hash(BsonValue value) {
    Hasher h = HASHERS.get();
    h.reset();
    h.int32(SEED);
    h.element(null, value);
    return h.finish();
  }

  /** {@link #hash} as the BSON value a chunk bound holds. */
  public static BsonInt64 hashed(BsonValue value) {
    return new BsonInt64(hash(value));
  }

  /** MongoDB's {@code safeNumberLongForHash} of a number. */
  static long numberForHash(BsonValue number) {
    return switch (number.getBsonType()) {
      case INT32 -> number.asInt32().getValue();
      case INT64 -> number.asInt64().getValue();
      case DOUBLE -> {
        double d = number.asDouble().getValue();
        // 2^63 historically overflowed to -2^63 on the platforms MongoDB runs on, and hashes stay as they were;
        // otherwise Java's conversion is the server's: truncation, NaN to 0, clamped at both ends.
        yield d == TWO_TO_63 ? Long.MIN_VALUE : (long) d;
      }
      case DECIMAL128 -> decimalForHash(number.asDecimal128().getValue());
      default -> throw new IllegalArgumentException("not a number: " + number.getBsonType());
    };
  }

  private static long decimalForHash(Decimal128 d) {
    if (d.isNaN()) {
      return 0;
    }
    if (d.isInfinite()) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    BigDecimal value = BsonValues.finiteDecimal(d);
    if (value.compareTo(LONG_MAX) > 0) {
      return Long.MAX_VALUE;
    }
    if (value.compareTo(LONG_MIN) < 0) {
      return Long.MIN_VALUE;
    }
    // Decimal128::toLong() rounds to nearest, ties to even; the result may still be 2^63 (from
    // 9223372036854775807.5), which the server clamps in its conversion.
    BigDecimal rounded = value.setScale(0, RoundingMode.HALF_EVEN);
    return rounded.compareTo(LONG_MAX) > 0 ? Long.MAX_VALUE : rounded.longValueExact();
  }

  /** One thread's MD5 and input buffer. */
  private static final class Hasher {
    private final MessageDigest md5;
    private byte[] buffer = new byte[256];
    private int length;

    Hasher() {
      try {
        md5 = MessageDigest.getInstance("MD5");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("MD5 is required of every Java platform", e);
      }
    }

    void reset() {
      length = 0;
    }

    long finish() {
      md5.update(buffer, 0, length);
      byte[] d = md5.digest();
      long out = 0;
      for (int i = 7; i >= 0; i--) {
        out = (out << 8) | (d[i] & 0xffL);
      }
      if (buffer.length > 64 * 1024) {
        buffer = new byte[256];  // do not keep a huge document's buffer per thread
      }
      return out;
    }

    private void ensure(int more) {
      if (length + more > buffer.length) {
        buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
      }
    }

    void int32(int v) {
      ensure(4);
      buffer[length++] = (byte) v;
      buffer[length++] = (byte) (v >>> 8);
      buffer[length++] = (byte) (v >>> 16);
      buffer[length++] = (byte) (v >>> 24);
    }

    void int64(long v) {
      ensure(8);
      for (int i = 0; i < 8; i++) {
        buffer[length++] = (byte) (v >>> (8 * i));
      }
    }

    void bytes(byte[] b) {
      ensure(b.length);
      System.arraycopy(b, 0, buffer, length, b.length);
      length += b.length;
    }

    void byte1(int b) {
      ensure(1);
      buffer[length++] = (byte) b;
    }

    /** A C string: UTF-8 and NUL. */
    void cstring(String s) {
      bytes(s.getBytes(StandardCharsets.UTF_8));
      byte1(0);
    }

    /** A BSON string value: int32 length (with the NUL), UTF-8, NUL. */
    void string(String s) {
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      int32(utf8.length + 1);
      bytes(utf8);
      byte1(0);
    }

    /** One element: canonical type, the field name inside documents and arrays, then the value. */
    void element(String fieldName, BsonValue v) {
      BsonType type = v.getBsonType();
      int32(BsonOrder.canonicalType(type));
      if (fieldName != null) {
        cstring(fieldName);
      }
      switch (type) {
        case INT32, INT64, DOUBLE, DECIMAL128 -> int64(numberForHash(v));
        case STRING -> string(v.asString().getValue());
        case SYMBOL -> string(v.asSymbol().getSymbol());
        case JAVASCRIPT -> string(v.asJavaScript().getCode());
        case OBJECT_ID -> bytes(v.asObjectId().getValue().toByteArray());
        case BOOLEAN -> byte1(v.asBoolean().getValue() ? 1 : 0);
        case DATE_TIME -> int64(v.asDateTime().getValue());
        case TIMESTAMP -> int64(v.asTimestamp().getValue());
        case NULL, UNDEFINED, MIN_KEY, MAX_KEY, END_OF_DOCUMENT -> {
          // no value bytes
        }
        case BINARY -> {
          BsonBinary binary = v.asBinary();
          byte[] payload = BsonValues.binaryPayload(binary);
          int32(payload.length);
          byte1(binary.getType());
          bytes(payload);
        }
        case REGULAR_EXPRESSION -> {
          BsonRegularExpression regex = v.asRegularExpression();
          cstring(regex.getPattern());
          cstring(regex.getOptions());
        }
        case DB_POINTER -> {
          BsonDbPointer pointer = v.asDBPointer();
          string(pointer.getNamespace());
          bytes(pointer.getId().toByteArray());
        }
        case DOCUMENT -> document(v.asDocument());
        case ARRAY -> {
          BsonArray array = v.asArray();
          for (int i = 0; i < array.size(); i++) {
            element(Integer.toString(i), array.get(i));
          }
          endOfObject();
        }
        case JAVASCRIPT_WITH_SCOPE -> {
          BsonJavaScriptWithScope code = v.asJavaScriptWithScope();
          cstring(code.getCode());
          document(code.getScope());
        }
        default -> throw new IllegalArgumentException("cannot hash a " + type);
      }
    }

    private void document(BsonDocument d) {
      for (Map.Entry<String, BsonValue> e : d.entrySet()) {
        element(e.getKey(), e.getValue());
      }
      endOfObject();
    }

    /** The EOO element: canonical type 0, no field name, no value. */
    private void endOfObject() {
      int32(0);
    }
  }
}
