package org.geoshard.postgis;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/** Finds the PostgreSQL server's processes when it runs on this machine (for {@code trace.io}). */
final class LocalServer {
  private static final Set<String> LOCAL_HOSTS = Set.of("127.0.0.1", "localhost", "::1", "[::1]");

  private LocalServer() {
  }

  /** Whether the JDBC URL names this machine. */
  static boolean isLocalUrl(String jdbcUrl) {
    try {
      String host = uri(jdbcUrl).getHost();
      return host == null || LOCAL_HOSTS.contains(host);
    } catch (IllegalArgumentException e) {
      return false;  // a URL java.net.URI cannot read: not known to be local
    }
  }

  /** {@code postgresql-<port>}: one name per local server. */
  static String nodeName(String jdbcUrl) {
    int port;
    try {
      port = uri(jdbcUrl).getPort();
    } catch (IllegalArgumentException e) {
      port = -1;
    }
    return "postgresql-" + (port < 0 ? 5432 : port);
  }

  /** The postmaster of a backend: its parent, when that process is a postgres process. */
  static Optional<Long> postmasterOf(long backendPid) {
    return postmasterOf(Path.of("/proc"), backendPid);
  }

  static Optional<Long> postmasterOf(Path proc, long backendPid) {
    try {
      String stat = Files.readString(proc.resolve(Long.toString(backendPid)).resolve("stat"));
      // "pid (comm) state ppid ...": the name may hold spaces and parentheses, so read after the last ')'.
      String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long parent = Long.parseLong(after[1]);
      String comm = Files.readString(proc.resolve(Long.toString(parent)).resolve("comm")).strip();
      return comm.startsWith("postgres") ? Optional.of(parent) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();  // not on this machine, or not visible from here
    }
  }

  private static URI uri(String jdbcUrl) {
    return URI.create(jdbcUrl.substring("jdbc:".length()));
  }
}
