package org.geoshard.geo.cities;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * How a cities file's bytes are read ({@code geo.cities.encoding}): UTF-8, checked (a byte sequence
 * that is not UTF-8 is an error naming its line), or ISO-8859-1 (Latin-1: every byte is a character).
 */
public enum CityEncoding {
  UTF_8(StandardCharsets.UTF_8),
  ISO_8859_1(StandardCharsets.ISO_8859_1);

  private final Charset charset;

  CityEncoding(Charset charset) {
    this.charset = charset;
  }

  public Charset charset() {
    return charset;
  }

  /**
   * The encoding a name means, by Java's charset names and aliases ({@code UTF-8}, {@code utf8},
   * {@code ISO-8859-1}, {@code latin1}, ...), or null for any other name.
   */
  public static CityEncoding named(String name) {
    try {
      Charset wanted = Charset.forName(name.trim());
      for (CityEncoding encoding : values()) {
        if (encoding.charset.equals(wanted)) {
          return encoding;
        }
      }
    } catch (IllegalArgumentException unknown) {
      // An illegal or unsupported charset name: not one of ours either.
    }
    return null;
  }
}
