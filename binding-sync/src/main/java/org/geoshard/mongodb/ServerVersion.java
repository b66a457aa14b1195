package org.geoshard.mongodb;

import java.util.List;
import org.bson.Document;

/** A MongoDB server version ({@code buildInfo}), compared by major, minor and patch. */
public record ServerVersion(int major, int minor, int patch) implements Comparable<ServerVersion> {

  /** From {@code buildInfo}: its {@code versionArray} when present, else its {@code version} text. */
  public static ServerVersion fromBuildInfo(Document buildInfo) {
    Object array = buildInfo.get("versionArray");
    if (array instanceof List<?> parts && parts.size() >= 2) {
      return new ServerVersion(number(parts, 0), number(parts, 1), parts.size() > 2 ? number(parts, 2) : 0);
    }
    return parse(String.valueOf(buildInfo.get("version")));
  }

  /** "8.0.4", "7.0.12-rc0", "4.2": unknown parts are 0. */
  public static ServerVersion parse(String text) {
    int[] numbers = new int[3];
    String[] parts = text.split("[.\\-+]");
    for (int i = 0; i < 3 && i < parts.length; i++) {
      try {
        numbers[i] = Integer.parseInt(parts[i]);
      } catch (NumberFormatException e) {
        break;
      }
    }
    return new ServerVersion(numbers[0], numbers[1], numbers[2]);
  }

  private static int number(List<?> parts, int i) {
    return parts.get(i) instanceof Number n ? n.intValue() : 0;
  }

  public boolean atLeast(int wantedMajor, int wantedMinor) {
    return major > wantedMajor || (major == wantedMajor && minor >= wantedMinor);
  }

  @Override
  public int compareTo(ServerVersion o) {
    int c = Integer.compare(major, o.major);
    if (c == 0) {
      c = Integer.compare(minor, o.minor);
    }
    return c != 0 ? c : Integer.compare(patch, o.patch);
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
