package org.geoshard.harness.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets before anything is written or logged: the password in a URL's user information
 * ({@code mongodb://user:secret@host} becomes {@code mongodb://user:****@host}) and the whole value of
 * properties whose name says it is a secret ({@code postgis.password}).
 *
 * <p>The user information of a URL is taken to end at the <em>last</em> '@' of its word (up to
 * whitespace), not the first: a password with an unencoded '@' or '/' ({@code bob:Lk@Zq9@host}) is
 * then masked whole. When an '@' belongs to the query instead, more than the password is masked,
 * which hides a little but never shows a secret. The scan is linear in the text (a megabyte value
 * is masked in milliseconds).
 */
public final class Secrets {
  public static final String MASK = "****";

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
    StringBuilder out = new StringBuilder(text.length());
    int copied = 0;
    for (Span password : urlPasswords(text)) {
      out.append(text, copied, password.start()).append(MASK);
      copied = password.end();
    }
    out.append(text, copied, text.length());
    return QUERY_PASSWORD.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK));
  }

  /**
   * True when a value holds a URL whose password has an unencoded '@' (as {@code bob:Lk@Zq9@host}):
   * drivers split such a URL at the wrong '@'.
   */
  public static boolean hasUnencodedPassword(String text) {
    if (text == null) {
      return false;
    }
    return urlPasswords(text).stream().map(p -> text.substring(p.start(), p.end()))
        .anyMatch(secret -> secret.indexOf('@') >= 0 && secret.indexOf('/') < 0 && secret.indexOf('?') < 0);
  }

  /** Where a password lies in a text: [start, end). */
  private record Span(int start, int end) {
  }

  /** The passwords of the URLs in a text, one at most per whitespace-separated word, in order. */
  private static List<Span> urlPasswords(String text) {
    List<Span> found = new ArrayList<>();
    int wordStart = 0;
    while (wordStart < text.length()) {
      int wordEnd = wordStart;
      while (wordEnd < text.length() && !Character.isWhitespace(text.charAt(wordEnd))) {
        wordEnd++;
      }
      int password = passwordStart(text, wordStart, wordEnd);
      if (password >= 0) {
        found.add(new Span(password, lastAt(text, wordStart, wordEnd)));
      }
      wordStart = wordEnd + 1;
    }
    return found;
  }

  /**
   * Where the password of the URL in text[from, to) starts (after "scheme://user:"), or -1 when the
   * word holds no URL with a password.
   */
  private static int passwordStart(String text, int from, int to) {
    int scheme = -1;
    for (int i = from; i + 3 <= to && scheme < 0; i++) {
      if (text.charAt(i) == ':' && text.charAt(i + 1) == '/' && text.charAt(i + 2) == '/') {
        scheme = i;
      }
    }
    if (scheme < 0) {
      return -1;
    }
    int at = lastAt(text, scheme + 3, to);
    if (at < 0) {
      return -1;
    }
    for (int i = scheme + 3; i < at; i++) {
      if (text.charAt(i) == ':') {
        return i + 1;
      }
    }
    return -1;
  }

  private static int lastAt(String text, int from, int to) {
    for (int i = to - 1; i >= from; i--) {
      if (text.charAt(i) == '@') {
        return i;
      }
    }
    return -1;
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
