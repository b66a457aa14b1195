package org.geoshard.harness.config;

import java.util.Locale;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets before anything is written or logged: the password in a URL's user information
 * ({@code mongodb://user:secret@host} becomes {@code mongodb://user:****@host}) and the whole value of
 * properties whose name says it is a secret ({@code postgis.password}).
 */
public final class Secrets {
  public static final String MASK = "****";

  // scheme://user:password@  (password may hold anything but '@' and '/')
  private static final Pattern URL_PASSWORD = Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\\s]*:)([^@/\\s]*)(@)");
  // key=value pairs inside URLs or JDBC query strings: ...?password=secret&...
  private static final Pattern QUERY_PASSWORD = Pattern.compile("((?:password|pwd|secret|token)=)([^&;\\s]*)", Pattern.CASE_INSENSITIVE);

  private Secrets() {
  }

  /** True for property names that hold a secret as a whole. */
  public static boolean isSecretName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.contains("password") || lower.contains("secret") || lower.endsWith("token")
        || lower.endsWith("passphrase") || lower.endsWith(".apikey");
  }

  /** Masks the passwords inside a text (URLs, query strings), leaving the rest readable. */
  public static String maskText(String text) {
    if (text == null) {
      return null;
    }
    String masked = URL_PASSWORD.matcher(text).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK + m.group(3)));
    return QUERY_PASSWORD.matcher(masked).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK));
  }

  /** The value of a property as it may be shown: fully masked for secret names, else text-masked. */
  public static String maskValue(String name, String value) {
    if (value == null) {
      return null;
    }
    return isSecretName(name) && !value.isEmpty() ? MASK : maskText(value);
  }

  /** A sorted copy of the properties with every secret masked. */
  public static TreeMap<String, String> masked(Properties properties) {
    TreeMap<String, String> out = new TreeMap<>();
    for (String name : properties.stringPropertyNames()) {
      out.put(name, maskValue(name, properties.getProperty(name)));
    }
    return out;
  }
}
