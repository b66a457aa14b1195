package org.geoshard.geo.dataset;

import org.geoshard.geo.contract.Restaurant;

/**
 * A restaurant as one line of JSON, importable with {@code mongoimport}: the study's field names and
 * a GeoJSON point {@code [longitude, latitude]}.
 */
public final class RestaurantJson {
  private RestaurantJson() {
  }

  /** Appends the document (no line end) to {@code out}. */
  public static void append(Restaurant r, StringBuilder out) {
    out.append("{\"_id\":").append(r.id());
    string(out.append(",\"Name\":"), r.name());
    string(out.append(",\"City\":"), r.city());
    string(out.append(",\"Cuisine\":"), r.cuisine());
    out.append(",\"Opened\":").append(r.opened());
    out.append(",\"Rating\":").append(r.rating());
    out.append(",\"Reviews\":").append(r.reviews());
    string(out.append(",\"Pricing\":"), r.pricing());
    out.append(",\"Outside_area\":").append(r.outsideArea());
    out.append(",\"location\":{\"type\":\"Point\",\"coordinates\":[").append(r.longitude()).append(',')
        .append(r.latitude()).append("]}}");
  }

  public static String toJson(Restaurant r) {
    StringBuilder out = new StringBuilder(200);
    append(r, out);
    return out.toString();
  }

  /** A JSON string literal (RFC 8259 escaping). */
  static void string(StringBuilder out, String value) {
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /** The number of bytes a text takes in UTF-8. */
  public static long utf8Length(CharSequence text) {
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}
