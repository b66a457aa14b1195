package org.geoshard.geo.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import com.github.luben.zstd.ZstdInputStream;
import org.geoshard.geo.TestCities;
import org.geoshard.geo.dataset.DatasetExport.Compression;
import org.junit.jupiter.api.Test;

class DatasetExportTest {
  private final RestaurantDataset dataset = new RestaurantDataset(TestCities.FIVE, 0.02, Placement.UNIFORM_DISTANCE, 7);

  private byte[] export(int threads, int level, int chunk) throws IOException {
    return export(Compression.GZIP, threads, level, chunk);
  }

  private byte[] export(Compression compression, int threads, int level, int chunk) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(new DatasetExport(compression, level, threads, chunk).write(dataset, out)).isEqualTo(dataset.size());
    return out.toByteArray();
  }

  private String expectedLines() {
    StringBuilder text = new StringBuilder();
    for (long k = 0; k < dataset.size(); k++) {
      text.append(RestaurantJson.toJson(dataset.restaurant(k))).append('\n');
    }
    return text.toString();
  }

  private static String gunzip(byte[] gz) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void plainExportIsEveryRestaurantInIdOrder() throws IOException {
    assertThat(dataset.size()).isGreaterThan(1_000);
    assertThat(new String(export(Compression.NONE, 3, 0, 97), StandardCharsets.UTF_8)).isEqualTo(expectedLines());
  }

  @Test
  void theContentIsTheSameForAnyThreadsLevelAndChunk() throws IOException {
    String expected = expectedLines();
    byte[] oneThreadFastest = export(1, 1, DatasetExport.DEFAULT_CHUNK);
    byte[] threeThreadsSmallest = export(3, 9, 101);
    byte[] manyThreadsTinyChunks = export(8, 6, 7);
    assertThat(gunzip(oneThreadFastest)).isEqualTo(expected);
    assertThat(gunzip(threeThreadsSmallest)).isEqualTo(expected);
    assertThat(gunzip(manyThreadsTinyChunks)).isEqualTo(expected);
    // The level is honoured: level 9 of the same text is smaller than level 1.
    assertThat(export(1, 9, DatasetExport.DEFAULT_CHUNK).length).isLessThan(oneThreadFastest.length);
  }

  @Test
  void zstdFramesHoldTheSameContent() throws IOException {
    byte[] zst = export(Compression.ZSTD, 3, 1, 101);
    try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(zst))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(expectedLines());
    }
    assertThat(zst.length).isLessThan(expectedLines().length() / 3);
  }

  @Test
  void eachChunkIsOneCompleteGzipMember() throws IOException {
    int chunk = 100;
    byte[] gz = export(2, 6, chunk);
    long expectedMembers = (dataset.size() + chunk - 1) / chunk;
    assertThat(members(gz)).isEqualTo(expectedMembers);
  }

  /** Counts the gzip members by inflating them one after the other (header of 10 bytes, no flags). */
  private static long members(byte[] gz) throws IOException {
    long members = 0;
    int offset = 0;
    byte[] sink = new byte[1 << 16];
    while (offset < gz.length) {
      assertThat(gz[offset] & 0xff).isEqualTo(0x1f);
      assertThat(gz[offset + 1] & 0xff).isEqualTo(0x8b);
      Inflater inflater = new Inflater(true);
      inflater.setInput(gz, offset + 10, gz.length - offset - 10);
      try {
        while (!inflater.finished()) {
          inflater.inflate(sink);
        }
      } catch (java.util.zip.DataFormatException e) {
        throw new IOException(e);
      }
      offset = gz.length - inflater.getRemaining() + 8;  // past the CRC-32 and size trailer
      inflater.end();
      members++;
    }
    return members;
  }

  @Test
  void aFailingOutputStopsTheExportWithItsError() {
    OutputStream broken = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("disk full");
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        throw new IOException("disk full");
      }
    };
    assertThatThrownBy(() -> new DatasetExport(Compression.GZIP, 1, 2, 50).write(dataset, broken))
        .hasMessage("disk full");
  }

  @Test
  void settingsOutsideTheirRangeAreRefused() {
    assertThatThrownBy(() -> new DatasetExport(Compression.GZIP, 6, 0, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DatasetExport(Compression.GZIP, 10, 1, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DatasetExport(Compression.ZSTD, 20, 1, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DatasetExport(Compression.GZIP, 6, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(Compression.of("a.jsonl.gz")).isEqualTo(Compression.GZIP);
    assertThat(Compression.of("a.jsonl.zst")).isEqualTo(Compression.ZSTD);
    assertThat(Compression.of("a.jsonl")).isEqualTo(Compression.NONE);
  }
}
