package org.geoshard.geo.cities;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import java.util.zip.GZIPInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads cities from the bundled resource or a user's file in any {@link CityFormat} (plain or
 * gzip'd). A malformed line is an error naming the file and line, or, with {@code skipBad}, is
 * skipped and counted. A line that is not valid UTF-8 (when the file is read as UTF-8) is always an
 * error: it means the whole file is in another encoding, so skipping would drop or garble many cities.
 */
public final class CityReader {
  private static final Logger LOG = LoggerFactory.getLogger(CityReader.class);
  public static final String BUNDLED_RESOURCE = "/org/geoshard/geo/cities1000.tsv.gz";

  private final boolean skipBad;
  private long skipped;

  public CityReader(boolean skipBad) {
    this.skipBad = skipBad;
  }

  /** Lines skipped as malformed by the last read. */
  public long skipped() {
    return skipped;
  }

  /** The GeoNames cities of at least 1,000 people bundled with geoshard (CC BY 4.0, see README). */
  public List<City> readBundled() throws CityFileException {
    InputStream in = CityReader.class.getResourceAsStream(BUNDLED_RESOURCE);
    if (in == null) {
      throw new CityFileException("The bundled cities resource " + BUNDLED_RESOURCE + " is missing from the class path.");
    }
    try (InputStream stream = in) {
      return read(new GZIPInputStream(stream), "bundled cities", CityEncoding.UTF_8);
    } catch (IOException e) {
      throw new CityFileException("The bundled cities resource cannot be read: " + e.getMessage(), e);
    }
  }

  /** A user's file in UTF-8. */
  public List<City> read(Path file) throws CityFileException {
    return read(file, CityEncoding.UTF_8);
  }

  public List<City> read(Path file, CityEncoding encoding) throws CityFileException {
    if (!Files.isRegularFile(file)) {
      throw new CityFileException("Property 'geo.cities': " + file + " is not a file.");
    }
    try (InputStream raw = Files.newInputStream(file)) {
      InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
      return read(in, file.toString(), encoding);
    } catch (IOException e) {
      throw new CityFileException("Property 'geo.cities': " + file + " cannot be read: " + e.getMessage(), e);
    }
  }

  List<City> read(InputStream in, String source, CityEncoding encoding) throws IOException, CityFileException {
    try {
      return read(new CityLines(in, encoding), source);
    } catch (CityLines.MalformedLineException e) {
      throw new CityFileException(String.format(Locale.ROOT, "%s line %d is not UTF-8 (byte 0x%02X); if the file is"
          + " Latin-1, set %s=ISO-8859-1.", source, e.line(), e.badByte(), "geo.cities.encoding"));
    }
  }

  private List<City> read(CityLines reader, String source)
      throws IOException, CityFileException, CityLines.MalformedLineException {
    skipped = 0;
    String first = reader.next();
    if (first == null) {
      throw new CityFileException(source + " is empty.");
    }
    CityFormat format = CityFormat.detect(first);
    if (format == null) {
      throw new CityFileException(source + " line 1: not a known cities format (the bundled TSV, GeoNames'"
          + " cities1000.txt, or the opendatasoft ';' CSV with a Coordinates column).");
    }
    LineParser parser;
    try {
      parser = switch (format) {
        case BUNDLED -> CityReader::parseBundled;
        case GEONAMES -> CityReader::parseGeoNames;
        case OPENDATASOFT -> new OpenDataSoftParser(first);
      };
    } catch (IllegalArgumentException e) {
      throw new CityFileException(source + " line 1: " + e.getMessage() + ".");
    }
    List<City> cities = new ArrayList<>();
    if (format == CityFormat.GEONAMES) {
      parseInto(parser, first, reader.lineNumber(), source, cities);
    }
    String line;
    while ((line = reader.next()) != null) {
      if (!line.isBlank()) {
        parseInto(parser, line, reader.lineNumber(), source, cities);
      }
    }
    if (skipped > 0) {
      LOG.warn("{}: skipped {} malformed lines (geo.cities.skipbad=true).", source, skipped);
    }
    if (cities.isEmpty()) {
      throw new CityFileException(source + " holds no cities.");
    }
    return cities;
  }

  private void parseInto(LineParser parser, String line, long lineNumber, String source, List<City> out)
      throws CityFileException {
    try {
      out.add(parser.parse(line));
    } catch (IllegalArgumentException e) {
      if (!skipBad) {
        throw new CityFileException(source + " line " + lineNumber + ": " + e.getMessage()
            + " (set geo.cities.skipbad=true to skip and count such lines).");
      }
      skipped++;
    }
  }

  @FunctionalInterface
  private interface LineParser {
    City parse(String line);
  }

  /**
   * The bundled file is read at every start (135,233 lines): its six fields are cut at the tabs
   * directly, without String.split's array and list.
   */
  static City parseBundled(String line) {
    String[] f = new String[6];
    int start = 0;
    for (int i = 0; i < 5; i++) {
      int tab = line.indexOf('\t', start);
      if (tab < 0) {
        expectColumns(line.split("\t", -1), 6);
      }
      f[i] = line.substring(start, tab);
      start = tab + 1;
    }
    if (line.indexOf('\t', start) >= 0) {
      expectColumns(line.split("\t", -1), 6);
    }
    f[5] = line.substring(start);
    return city(f[0], f[1], f[2], f[3], f[4], f[5]);
  }

  /** GeoNames dump columns: 0 id, 1 name, 4 latitude, 5 longitude, 8 country code, 14 population. */
  static City parseGeoNames(String line) {
    String[] f = line.split("\t", -1);
    if (f.length < 15) {
      throw new IllegalArgumentException("expected at least 15 tab-separated columns, found " + f.length);
    }
    return city(f[0], f[1], f[8], f[4], f[5], f[14]);
  }

  private static void expectColumns(String[] fields, int n) {
    if (fields.length != n) {
      throw new IllegalArgumentException("expected " + n + " tab-separated columns, found " + fields.length);
    }
  }

  static City city(String id, String name, String country, String lat, String lon, String population) {
    long geonameId = number(id, "geonameid");
    if (name.isBlank()) {
      throw new IllegalArgumentException("the name is empty");
    }
    double latitude = degrees(lat, "latitude", 90);
    double longitude = degrees(lon, "longitude", 180);
    long people = population.isBlank() ? 0 : number(population, "population");
    if (people < 0) {
      throw new IllegalArgumentException("population '" + population + "' is negative");
    }
    return new City(geonameId, name.trim(), country.trim().toUpperCase(Locale.ROOT), latitude, longitude, people);
  }

  private static long number(String text, String what) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " '" + text + "' is not a whole number");
    }
  }

  private static double degrees(String text, String what, double limit) {
    double value = plainDecimal(text);
    try {
      if (Double.isNaN(value)) {
        value = Double.parseDouble(text.trim());
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " '" + text + "' is not a number");
    }
    if (!(value >= -limit && value <= limit)) {
      throw new IllegalArgumentException(what + " " + text + " is outside [-" + (int) limit + ", " + (int) limit + "]");
    }
    return value;
  }

  private static final double[] POWERS_OF_TEN = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
      1e12, 1e13, 1e14, 1e15};

  /**
   * A coordinate written as -?digits.digits with at most 15 digits, exactly as Double.parseDouble
   * reads it, or NaN for any other text (which Double.parseDouble then reads). Exact because both the
   * digits as a whole number (below 2^53) and the power of ten are exact doubles and IEEE division
   * rounds correctly, as parseDouble does; it spares the start-up the cost of FloatingDecimal.
   */
  static double plainDecimal(String text) {
    int n = text.length();
    int i = n > 0 && text.charAt(0) == '-' ? 1 : 0;
    long digits = 0;
    int count = 0;
    int decimals = -1;
    for (; i < n; i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        digits = digits * 10 + (c - '0');
        count++;
        if (decimals >= 0) {
          decimals++;
        }
      } else if (c == '.' && decimals < 0) {
        decimals = 0;
      } else {
        return Double.NaN;
      }
    }
    if (count == 0 || count > 15 || decimals == 0) {
      return Double.NaN;
    }
    double value = decimals < 0 ? digits : digits / POWERS_OF_TEN[decimals];
    return text.charAt(0) == '-' ? -value : value;
  }

  /**
   * The ';'-separated opendatasoft export; columns are found by their header names. The geo workload
   * needs only Name, Population and Coordinates (as the study's generator); Geoname ID and Country
   * Code are read when present.
   */
  private static final class OpenDataSoftParser implements LineParser {
    private final int id;
    private final int name;
    private final int country;
    private final int population;
    private final int coordinates;
    private final int needed;

    OpenDataSoftParser(String header) {
      List<String> columns = splitCsv(header.startsWith("\uFEFF") ? header.substring(1) : header);
      name = required(columns, "Name");
      population = required(columns, "Population");
      coordinates = required(columns, "Coordinates");
      id = column(columns, "Geoname ID");
      country = column(columns, "Country Code");
      needed = IntStream.of(id, name, country, population, coordinates).max().orElseThrow() + 1;
    }

    private static int required(List<String> columns, String wanted) {
      int index = column(columns, wanted);
      if (index < 0) {
        throw new IllegalArgumentException("the header has no '" + wanted + "' column, which the geo workload needs"
            + " (it reads Name, Population and Coordinates)");
      }
      return index;
    }

    private static int column(List<String> columns, String wanted) {
      for (int i = 0; i < columns.size(); i++) {
        if (columns.get(i).trim().equalsIgnoreCase(wanted)) {
          return i;
        }
      }
      return -1;
    }

    @Override
    public City parse(String line) {
      List<String> f = splitCsv(line);
      if (f.size() < needed) {
        throw new IllegalArgumentException("expected at least " + needed + " ';'-separated columns, found " + f.size());
      }
      String[] latLon = f.get(coordinates).split(",");
      if (latLon.length != 2) {
        throw new IllegalArgumentException("Coordinates '" + f.get(coordinates) + "' is not \"lat, lon\"");
      }
      return city(id < 0 ? "0" : f.get(id), f.get(name), country < 0 ? "" : f.get(country), latLon[0], latLon[1],
          f.get(population));
    }
  }

  /** Splits one line of a ';'-separated file whose fields may be double-quoted ("" is a quote). */
  static List<String> splitCsv(String line) {
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ';') {
        fields.add(field.toString());
        field.setLength(0);
      } else {
        field.append(c);
      }
    }
    if (quoted) {
      throw new IllegalArgumentException("a quoted field is not closed");
    }
    fields.add(field.toString());
    return fields;
  }
}
