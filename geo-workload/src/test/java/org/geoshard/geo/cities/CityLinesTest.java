package org.geoshard.geo.cities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CityLinesTest {
  /** Hands out at most {@code step} bytes a read, so that lines and characters straddle the buffer's refills. */
  private static InputStream trickle(byte[] bytes, int step) {
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, step));
      }
    };
  }

  private static List<String> lines(byte[] bytes, int step, CityEncoding encoding)
      throws IOException, CityLines.MalformedLineException {
    CityLines reader = new CityLines(trickle(bytes, step), encoding);
    List<String> lines = new ArrayList<>();
    for (String line = reader.next(); line != null; line = reader.next()) {
      lines.add(line);
      assertThat(reader.lineNumber()).isEqualTo(lines.size());
    }
    return lines;
  }

  @Test
  void linesEndAtNewlineOrCrLfAndTheLastMayHaveNoEnd() throws Exception {
    String longLine = "Ł".repeat(100_000);
    byte[] text = ("Kraków\r\n\nZürich\n" + longLine + "\nend").getBytes(StandardCharsets.UTF_8);
    for (int step : new int[] {1, 3, 7, 1 << 16, Integer.MAX_VALUE}) {
      assertThat(lines(text, step, CityEncoding.UTF_8)).as("step %d", step)
          .containsExactly("Kraków", "", "Zürich", longLine, "end");
    }
    assertThat(lines("a\n".getBytes(StandardCharsets.UTF_8), 5, CityEncoding.UTF_8)).containsExactly("a");
    assertThat(lines(new byte[0], 5, CityEncoding.UTF_8)).isEmpty();
  }

  @Test
  void aByteThatIsNotUtf8IsReportedWithItsLine() {
    byte[] text = "ok\nKrak\u00f3w\n".getBytes(StandardCharsets.ISO_8859_1);
    assertThatThrownBy(() -> lines(text, 2, CityEncoding.UTF_8))
        .isInstanceOfSatisfying(CityLines.MalformedLineException.class, e -> {
          assertThat(e.line()).isEqualTo(2);
          assertThat(e.badByte()).isEqualTo(0xF3);
        });
  }

  @Test
  void latin1ReadsEveryByte() throws Exception {
    byte[] text = "Z\u00fcrich\nS\u00e3o Paulo\n".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(lines(text, 3, CityEncoding.ISO_8859_1)).containsExactly("Z\u00fcrich", "S\u00e3o Paulo");
  }
}
