package org.geoshard.postgis;

import org.geoshard.geo.contract.Restaurant;

/** Restaurants as rows of PostgreSQL's COPY text format (tab-separated, backslash escapes). */
final class CopyRows {
  static final String COPY_SQL_COLUMNS =
      "(id, name, city, cuisine, opened, rating, reviews, pricing, outside_area, location)";

  private CopyRows() {
  }

  static void append(Restaurant r, StringBuilder out) {
    out.append(r.id()).append('\t');
    text(out, r.name());
    out.append('\t');
    text(out, r.city());
    out.append('\t');
    text(out, r.cuisine());
    out.append('\t').append(r.opened()).append('\t').append(r.rating()).append('\t').append(r.reviews()).append('\t');
    text(out, r.pricing());
    out.append('\t').append(r.outsideArea() ? 't' : 'f').append('\t')
        .append("SRID=4326;POINT(").append(r.longitude()).append(' ').append(r.latitude()).append(")\n");
  }

  /** COPY text escaping: backslash, tab, newline and carriage return. */
  static void text(StringBuilder out, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        default -> out.append(c);
      }
    }
  }
}
