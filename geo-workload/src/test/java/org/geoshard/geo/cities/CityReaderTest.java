package org.geoshard.geo.cities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
import org.geoshard.geo.TestCities;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CityReaderTest {
  @TempDir
  Path dir;

  private final CityReader reader = new CityReader(false);

  static String bundled(List<City> cities) {
    StringBuilder out = new StringBuilder(CityFormat.BUNDLED_HEADER).append('\n');
    for (City c : cities) {
      out.append(String.format(Locale.ROOT, "%d\t%s\t%s\t%s\t%s\t%d%n", c.geonameId(), c.name(), c.country(),
          c.latitude(), c.longitude(), c.population()));
    }
    return out.toString();
  }

  /** GeoNames' cities1000.txt: 19 columns, no header. */
  static String geoNames(List<City> cities) {
    StringBuilder out = new StringBuilder();
    for (City c : cities) {
      out.append(String.join("\t", Long.toString(c.geonameId()), c.name(), c.name(), "Alt,Names",
          Double.toString(c.latitude()), Double.toString(c.longitude()), "P", "PPLA", c.country(), "", "01", "", "", "",
          Long.toString(c.population()), "", "200", "Europe/Warsaw", "2024-01-01")).append('\n');
    }
    return out.toString();
  }

  /** The opendatasoft export the study used: ';'-separated, quoted fields, "lat, lon" coordinates. */
  static String openDataSoft(List<City> cities) {
    StringBuilder out = new StringBuilder("\uFEFFGeoname ID;Name;ASCII Name;Alternate Names;Feature Class;Feature Code;"
        + "Country Code;Country name EN;Country Code 2;Admin1 Code;Admin2 Code;Admin3 Code;Admin4 Code;Population;"
        + "Elevation;DIgital Elevation Model;Timezone;Modification date;LABEL EN;Coordinates\n");
    for (City c : cities) {
      out.append(c.geonameId()).append(';').append('"').append(c.name().replace("\"", "\"\"")).append('"')
          .append(";x;\"A;B\";P;PPL;").append(c.country()).append(";Country;;;;;;").append(c.population())
          .append(";;100;Zone;2024-01-01;Country;\"").append(c.latitude()).append(", ").append(c.longitude())
          .append("\"\n");
    }
    return out.toString();
  }

  private Path file(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
  }

  @Test
  void readsEveryFormatBackToTheSameCities() throws Exception {
    assertThat(reader.read(file("cities.tsv", bundled(TestCities.FIVE)))).isEqualTo(TestCities.FIVE);
    assertThat(reader.read(file("cities1000.txt", geoNames(TestCities.FIVE)))).isEqualTo(TestCities.FIVE);
    assertThat(reader.read(file("geonames.csv", openDataSoft(TestCities.FIVE)))).isEqualTo(TestCities.FIVE);
  }

  @Test
  void readsGzippedFiles() throws Exception {
    Path gz = dir.resolve("cities.tsv.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(bundled(TestCities.FIVE).getBytes(StandardCharsets.UTF_8));
    }
    assertThat(reader.read(gz)).isEqualTo(TestCities.FIVE);
  }

  @Test
  void theBundledFileHoldsTheGeoNamesSnapshot() throws Exception {
    List<City> cities = reader.readBundled();
    assertThat(cities).hasSize(135_233);
    City shanghai = cities.stream().filter(c -> c.geonameId() == 1796236).findFirst().orElseThrow();
    assertThat(shanghai.name()).isEqualTo("Shanghai");
    assertThat(shanghai.population()).isEqualTo(22_315_474);
    assertThat(cities.stream().mapToLong(City::population).max().orElseThrow()).isEqualTo(22_315_474);
  }

  @Test
  void aMalformedLineIsNamedWithItsNumber() throws Exception {
    String content = bundled(TestCities.FIVE).replace("50.06143", "fifty");
    Path bad = file("bad.tsv", content);
    assertThatThrownBy(() -> reader.read(bad))
        .isInstanceOf(CityFileException.class)
        .hasMessage(bad + " line 3: latitude 'fifty' is not a number (set geo.cities.skipbad=true to skip and count such lines).");
  }

  /** The test cities with Zürich added, so that a Latin-1 file has its first non-ASCII byte on line 3 (Kraków). */
  private static final List<City> ACCENTED = java.util.stream.Stream.concat(TestCities.FIVE.stream(),
      java.util.stream.Stream.of(new City(2657896, "Zürich", "CH", 47.36667, 8.55, 341_730))).toList();

  @Test
  void aLatin1FileIsRefusedWithTheLineOfItsFirstForeignByte() throws Exception {
    Path latin1 = Files.write(dir.resolve("latin1.tsv"), bundled(ACCENTED).getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> reader.read(latin1))
        .isInstanceOf(CityFileException.class)
        .hasMessage(latin1 + " line 3 is not UTF-8 (byte 0xF3); if the file is Latin-1, set"
            + " geo.cities.encoding=ISO-8859-1.");
    // Skipping malformed lines does not skip an encoding: the file is in another one as a whole.
    assertThatThrownBy(() -> new CityReader(true).read(latin1)).isInstanceOf(CityFileException.class)
        .hasMessageContaining("line 3 is not UTF-8");
    Path gz = dir.resolve("latin1.csv.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(openDataSoft(ACCENTED).getBytes(StandardCharsets.ISO_8859_1));
    }
    assertThatThrownBy(() -> reader.read(gz)).hasMessageStartingWith(gz + " line 3 is not UTF-8 (byte 0xF3)");
  }

  @Test
  void aLatin1FileIsReadWithItsEncoding() throws Exception {
    Path latin1 = Files.write(dir.resolve("latin1.tsv"), bundled(ACCENTED).getBytes(StandardCharsets.ISO_8859_1));
    List<City> cities = reader.read(latin1, CityEncoding.ISO_8859_1);
    assertThat(cities).isEqualTo(ACCENTED);
    assertThat(cities.get(5).name()).isEqualTo("Z\u00fcrich");
    Path utf8 = file("utf8.tsv", bundled(ACCENTED));
    assertThat(reader.read(utf8, CityEncoding.UTF_8)).isEqualTo(ACCENTED);
  }

  @Test
  void aReplacementCharacterWrittenInUtf8IsAName() throws Exception {
    List<City> odd = List.of(new City(1, "Z\uFFFDrich", "CH", 47.36667, 8.55, 341_730));
    assertThat(reader.read(file("odd.tsv", bundled(odd)))).isEqualTo(odd);
  }

  @Test
  void skipBadSkipsAndCounts() throws Exception {
    String content = bundled(TestCities.FIVE).replace("50.06143", "fifty").replace("48.85341", "91.5")
        + "1\tonly three\tcolumns\n";
    CityReader lenient = new CityReader(true);
    List<City> cities = lenient.read(file("bad.tsv", content));
    assertThat(cities).hasSize(3);
    assertThat(lenient.skipped()).isEqualTo(3);
  }

  @Test
  void unknownFormatsAndEmptyFilesAreRefused() throws Exception {
    Path odd = file("odd.txt", "hello,world\n");
    assertThatThrownBy(() -> reader.read(odd)).hasMessageContaining(odd + " line 1: not a known cities format");
    Path empty = file("empty.txt", "");
    assertThatThrownBy(() -> reader.read(empty)).hasMessage(empty + " is empty.");
    assertThatThrownBy(() -> reader.read(dir.resolve("missing.txt")))
        .hasMessage("Property 'geo.cities': " + dir.resolve("missing.txt") + " is not a file.");
    Path noPopulation = file("x.csv", "Geoname ID;Name;Country Code;Coordinates\n1;A;PL;1, 2\n");
    assertThatThrownBy(() -> reader.read(noPopulation))
        .hasMessage(noPopulation + " line 1: the header has no 'Population' column, which the geo workload needs"
            + " (it reads Name, Population and Coordinates).");
  }

  @Test
  void theStudysFormatNeedsOnlyNamePopulationAndCoordinates() throws Exception {
    Path minimal = file("minimal.csv", "Name;Population;Coordinates\n\"Kraków\";755050;\"50.06143, 19.93658\"\n");
    assertThat(reader.read(minimal)).containsExactly(new City(0, "Kraków", "", 50.06143, 19.93658, 755_050));
  }

  @Test
  void quotedCsvFieldsMayHoldSeparatorsAndQuotes() {
    assertThat(CityReader.splitCsv("1;\"a;b\";\"say \"\"hi\"\"\";")).containsExactly("1", "a;b", "say \"hi\"", "");
    assertThatThrownBy(() -> CityReader.splitCsv("1;\"open")).hasMessage("a quoted field is not closed");
  }

  @Test
  void plainDecimalsReadExactlyAsParseDoubleDoes() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(19);
    for (int i = 0; i < 200_000; i++) {
      String text = String.format(Locale.ROOT, "%." + random.nextInt(0, 9) + "f", random.nextDouble(-180, 180));
      assertThat(Double.doubleToRawLongBits(CityReader.plainDecimal(text)))
          .as(text).isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(text)));
    }
    assertThat(CityReader.plainDecimal("-0.0")).isEqualTo(-0.0).isEqualTo(Double.parseDouble("-0.0"));
    assertThat(Double.doubleToRawLongBits(CityReader.plainDecimal("-0.0"))).isEqualTo(Double.doubleToRawLongBits(-0.0));
    assertThat(CityReader.plainDecimal(".5")).isEqualTo(0.5);
    // Anything else is left to Double.parseDouble: NaN says so.
    for (String other : List.of("", "-", "12.", "1e5", " 12.5", "12.5 ", "1.2.3", "0.1234567890123456", "+1.5", "NaN")) {
      assertThat(CityReader.plainDecimal(other)).as(other).isNaN();
    }
  }

  @Test
  void bundledLinesWithTooFewOrTooManyColumnsAreRefused() {
    assertThatThrownBy(() -> CityReader.parseBundled("1\tA\tPL\t50.0\t19.0"))
        .hasMessage("expected 6 tab-separated columns, found 5");
    assertThatThrownBy(() -> CityReader.parseBundled("1\tA\tPL\t50.0\t19.0\t10\tx"))
        .hasMessage("expected 6 tab-separated columns, found 7");
    assertThat(CityReader.parseBundled("7\t Kraków \tpl\t50.06143\t-19.93658\t"))
        .isEqualTo(new City(7, "Kraków", "PL", 50.06143, -19.93658, 0));
  }
}
