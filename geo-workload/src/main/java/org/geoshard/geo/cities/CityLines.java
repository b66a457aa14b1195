package org.geoshard.geo.cities;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of a cities file, decoded in its {@link CityEncoding}: ends at {@code \n} or {@code \r\n}.
 * The bytes are cut into lines before they are decoded, so a byte sequence that is not UTF-8 is
 * reported with its line, where a {@code Reader} would either replace it silently with U+FFFD (Zürich
 * read as "Z\uFFFDrich") or fail somewhere in its read-ahead buffer, lines later.
 */
final class CityLines {
  private final InputStream in;
  private final CityEncoding encoding;
  private byte[] buffer = new byte[1 << 16];
  private int start;
  private int end;
  private boolean eof;
  private long lineNumber;

  CityLines(InputStream in, CityEncoding encoding) {
    this.in = in;
    this.encoding = encoding;
  }

  /** The number of the line {@link #next()} returned last, from 1. */
  long lineNumber() {
    return lineNumber;
  }

  /**
   * The next line without its end, or null at the end of the file.
   *
   * @throws MalformedLineException when the line is not valid in the encoding (only UTF-8 can fail)
   */
  String next() throws IOException, MalformedLineException {
    int scanned = start;
    while (true) {
      for (int i = scanned; i < end; i++) {
        if (buffer[i] == '\n') {
          int lineEnd = i > start && buffer[i - 1] == '\r' ? i - 1 : i;
          String line = decode(start, lineEnd);
          start = i + 1;
          return line;
        }
      }
      scanned = end;
      if (eof) {
        if (start == end) {
          return null;
        }
        String line = decode(start, end > start && buffer[end - 1] == '\r' ? end - 1 : end);
        start = end;
        return line;
      }
      scanned -= start;
      fill();
    }
  }

  /** Moves the unread bytes to the front, grows the buffer if a line fills it, and reads more. */
  private void fill() throws IOException {
    if (start > 0) {
      System.arraycopy(buffer, start, buffer, 0, end - start);
      end -= start;
      start = 0;
    }
    if (end == buffer.length) {
      buffer = Arrays.copyOf(buffer, buffer.length * 2);
    }
    int read = in.read(buffer, end, buffer.length - end);
    if (read < 0) {
      eof = true;
    } else {
      end += read;
    }
  }

  private String decode(int from, int to) throws MalformedLineException {
    lineNumber++;
    if (encoding == CityEncoding.ISO_8859_1) {
      return new String(buffer, from, to - from, StandardCharsets.ISO_8859_1);
    }
    // The JDK's own UTF-8 decoding is fast (ASCII at memory speed) but replaces malformed input with
    // U+FFFD; only a line holding U+FFFD is decoded again strictly, to tell a real U+FFFD from a bad byte.
    String line = new String(buffer, from, to - from, StandardCharsets.UTF_8);
    if (line.indexOf('\uFFFD') >= 0) {
      ByteBuffer bytes = ByteBuffer.wrap(buffer, from, to - from);
      CoderResult result = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .decode(bytes, CharBuffer.allocate(to - from), true);
      if (result.isError()) {
        throw new MalformedLineException(lineNumber, buffer[bytes.position()] & 0xff);
      }
    }
    return line;
  }

  /** A line that is not valid UTF-8. */
  static final class MalformedLineException extends Exception {
    private final long line;
    private final int badByte;

    MalformedLineException(long line, int badByte) {
      super("line " + line + " is not UTF-8");
      this.line = line;
      this.badByte = badByte;
    }

    long line() {
      return line;
    }

    /** The first byte that does not begin a valid UTF-8 sequence (0 to 255). */
    int badByte() {
      return badByte;
    }
  }
}
