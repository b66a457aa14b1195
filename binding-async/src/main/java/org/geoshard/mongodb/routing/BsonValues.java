package org.geoshard.mongodb.routing;

import java.math.BigDecimal;
import java.util.Date;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.Document;
import org.bson.codecs.configuration.CodecRegistry;
import org.bson.types.Binary;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;

/** Small conversions between the driver's Java values and BSON values, for shard key values. */
public final class BsonValues {
  private static final CodecRegistry CODECS = com.mongodb.MongoClientSettings.getDefaultCodecRegistry();

  private BsonValues() {
  }

  /**
   * A Java value as a document holds it ({@link Document}'s types: String, Long, Integer, Double,
   * Boolean, ObjectId, Date, Binary, Decimal128, nested documents and lists, ...) as a BSON value;
   * null is BSON null. The common scalar types are converted directly; the rest through the driver's
   * codecs.
   */
  public static BsonValue of(Object value) {
    if (value == null) {
      return BsonNull.VALUE;
    }
    if (value instanceof BsonValue bson) {
      return bson;
    }
    if (value instanceof String s) {
      return new BsonString(s);
    }
    if (value instanceof Long l) {
      return new BsonInt64(l);
    }
    if (value instanceof Integer i) {
      return new BsonInt32(i);
    }
    if (value instanceof Double d) {
      return new BsonDouble(d);
    }
    if (value instanceof Boolean b) {
      return BsonBoolean.valueOf(b);
    }
    if (value instanceof ObjectId id) {
      return new BsonObjectId(id);
    }
    if (value instanceof Date date) {
      return new BsonDateTime(date.getTime());
    }
    if (value instanceof Binary binary) {
      return new BsonBinary(binary.getType(), binary.getData());
    }
    if (value instanceof Decimal128 decimal) {
      return new BsonDecimal128(decimal);
    }
    BsonDocument wrapped = new Document("v", value).toBsonDocument(BsonDocument.class, CODECS);
    return wrapped.get("v");
  }

  /**
   * The bytes of a BinData value after its subtype byte, as BSON stores them: the data, preceded by
   * its own length for the old binary subtype 2 (which the driver strips when decoding).
   */
  static byte[] binaryPayload(BsonBinary binary) {
    byte[] data = binary.getData();
    if (!BsonOrder.oldBinary(binary)) {
      return data;
    }
    byte[] out = new byte[data.length + 4];
    int n = data.length;
    out[0] = (byte) n;
    out[1] = (byte) (n >>> 8);
    out[2] = (byte) (n >>> 16);
    out[3] = (byte) (n >>> 24);
    System.arraycopy(data, 0, out, 4, n);
    return out;
  }

  /** A finite decimal as a BigDecimal (negative zero, which BigDecimal lacks, as zero). */
  static BigDecimal finiteDecimal(Decimal128 d) {
    try {
      return d.bigDecimalValue();
    } catch (ArithmeticException e) {
      if (d.isNaN() || d.isInfinite()) {
        throw e;
      }
      return BigDecimal.ZERO;  // -0
    }
  }
}
