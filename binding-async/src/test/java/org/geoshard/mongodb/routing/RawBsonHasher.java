package org.geoshard.mongodb.routing;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.Arrays;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;

/**
 * A second implementation of MongoDB's hash for the tests, written the server's way: it encodes the
 * value with the driver's BSON encoder and walks the raw bytes as {@code recursiveHash} does (type
 * byte to canonical type, field name with its NUL, the value's bytes as they are, numbers converted),
 * so that the hand-written value encodings of {@link ShardKeyHash} are checked against real BSON.
 */
final class RawBsonHasher {
  private RawBsonHasher() {
  }

  static long hash(BsonValue value) throws Exception {
    RawBsonDocument raw = new RawBsonDocument(new BsonDocument("v", value), new BsonDocumentCodec());
    ByteBuffer bytes = ByteBuffer.wrap(raw.getByteBuffer().array(), 0, raw.getByteBuffer().limit()).order(ByteOrder.LITTLE_ENDIAN);
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    md5.update(new byte[] {0, 0, 0, 0});
    // skip the document length; the element 'v' starts at 4
    element(md5, bytes, 4, false);
    byte[] d = md5.digest();
    return ByteBuffer.wrap(d, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
  }

  /** Hashes the element at {@code at}; returns the offset after it. */
  private static int element(MessageDigest md5, ByteBuffer b, int at, boolean withName) {
    byte type = b.get(at);
    int nameStart = at + 1;
    int nameEnd = nameStart;
    while (b.get(nameEnd) != 0) {
      nameEnd++;
    }
    int value = nameEnd + 1;
    md5.update(le32(canonical(type)));
    if (withName) {
      md5.update(Arrays.copyOfRange(b.array(), nameStart, nameEnd + 1));
    }
    int size = valueSize(b, type, value);
    switch (type) {
      case 0x01 -> md5.update(le64(ShardKeyHash.numberForHash(new org.bson.BsonDouble(b.getDouble(value)))));
      case 0x10 -> md5.update(le64(b.getInt(value)));
      case 0x12 -> md5.update(le64(b.getLong(value)));
      case 0x13 -> {
        org.bson.types.Decimal128 dec = org.bson.types.Decimal128.fromIEEE754BIDEncoding(b.getLong(value + 8), b.getLong(value));
        md5.update(le64(ShardKeyHash.numberForHash(new org.bson.BsonDecimal128(dec))));
      }
      case 0x03, 0x04 -> subObject(md5, b, value);
      case 0x0F -> {
        int codeLen = b.getInt(value + 4);
        md5.update(Arrays.copyOfRange(b.array(), value + 8, value + 8 + codeLen));
        subObject(md5, b, value + 8 + codeLen);
      }
      default -> md5.update(Arrays.copyOfRange(b.array(), value, value + size));
    }
    return value + size;
  }

  private static void subObject(MessageDigest md5, ByteBuffer b, int start) {
    int at = start + 4;
    while (b.get(at) != 0) {
      at = element(md5, b, at, true);
    }
    md5.update(le32(0));  // EOO: canonical type 0, no name, no value
  }

  private static int valueSize(ByteBuffer b, byte type, int v) {
    return switch (type) {
      case 0x01, 0x09, 0x11, 0x12 -> 8;
      case 0x02, 0x0D, 0x0E -> 4 + b.getInt(v);
      case 0x03, 0x04, 0x0F -> b.getInt(v);
      case 0x05 -> 5 + b.getInt(v);
      case 0x06, 0x0A, (byte) 0xFF, 0x7F -> 0;
      case 0x07 -> 12;
      case 0x08 -> 1;
      case 0x0B -> {
        int end = v;
        while (b.get(end) != 0) {
          end++;
        }
        end++;
        while (b.get(end) != 0) {
          end++;
        }
        yield end + 1 - v;
      }
      case 0x0C -> 4 + b.getInt(v) + 12;
      case 0x10 -> 4;
      case 0x13 -> 16;
      default -> throw new IllegalArgumentException("type " + type);
    };
  }

  private static int canonical(byte type) {
    return switch (type) {
      case (byte) 0xFF -> -1;
      case 0x7F -> 127;
      case 0x00, 0x06 -> 0;
      case 0x0A -> 5;
      case 0x01, 0x10, 0x12, 0x13 -> 10;
      case 0x02, 0x0E -> 15;
      case 0x03 -> 20;
      case 0x04 -> 25;
      case 0x05 -> 30;
      case 0x07 -> 35;
      case 0x08 -> 40;
      case 0x09 -> 45;
      case 0x11 -> 47;
      case 0x0B -> 50;
      case 0x0C -> 55;
      case 0x0D -> 60;
      case 0x0F -> 65;
      default -> throw new IllegalArgumentException("type " + type);
    };
  }

  private static byte[] le32(int v) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
  }

  private static byte[] le64(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }
}
