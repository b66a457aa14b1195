package org.geoshard.mongodb;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * FerretDB, which is NOT MongoDB: an independent server speaking MongoDB's wire protocol (v1.24.2 on its
 * SQLite backend, built and started by {@code bin/ferretdb}). {@code bin/test ferretdb} starts one and
 * passes its address as {@value #URL_PROPERTY}, and the path of {@code bin/ferretdb} as
 * {@value #LAUNCHER_PROPERTY} for the tests that start, kill and restart a private one.
 */
public final class FerretServer implements AutoCloseable {
  /** {@code mongodb://127.0.0.1:PORT}: the suite's FerretDB; without it the FerretDB tests are skipped. */
  public static final String URL_PROPERTY = "geoshard.ferretdb.url";
  /** The path of {@code bin/ferretdb}, for a private server this test kills and restarts. */
  public static final String LAUNCHER_PROPERTY = "geoshard.ferretdb.launcher";

  private final Path dir;
  private final int port;
  private Process process;

  private FerretServer(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  /** The suite's server, for the given database: {@code mongodb://127.0.0.1:PORT/database}. */
  public static String shared(String database) {
    String url = System.getProperty(URL_PROPERTY);
    if (url == null || url.isBlank()) {
      throw new IllegalStateException("No FerretDB: run bin/test ferretdb, which sets -D" + URL_PROPERTY);
    }
    return url.replaceAll("/+$", "") + "/" + database;
  }

  /** Binding properties against the suite's server and {@code database}, with the given extra pairs. */
  public static Properties properties(String database, String... pairs) {
    Properties p = new Properties();
    p.setProperty(MongoSettings.URL, shared(database));
    p.setProperty(MongoSettings.SERVER_SELECTION_TIMEOUT, "5");
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  /** A private FerretDB on a free loopback port with its data in {@code dir}, answering before this returns. */
  public static FerretServer start(Path dir) throws IOException, InterruptedException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    FerretServer server = new FerretServer(dir, port);
    server.launch();
    return server;
  }

  public String url(String database) {
    return "mongodb://127.0.0.1:" + port + "/" + database;
  }

  /** Kills the server at once (SIGKILL: no clean shutdown); its data stays in the directory. */
  public void kill() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("FerretDB (pid " + process.pid() + ") did not die within 30 s of SIGKILL");
      }
      process = null;
    }
  }

  /** Starts it again on the same port over the same data. */
  public void restart() throws IOException, InterruptedException {
    kill();
    launch();
  }

  private void launch() throws IOException, InterruptedException {
    String launcher = System.getProperty(LAUNCHER_PROPERTY);
    if (launcher == null || launcher.isBlank()) {
      throw new IllegalStateException("No FerretDB launcher: run bin/test ferretdb, which sets -D" + LAUNCHER_PROPERTY);
    }
    java.nio.file.Files.createDirectories(dir);
    // bin/ferretdb run execs the server (under its memory cap), so this process is the server itself.
    process = new ProcessBuilder(launcher, "run", Integer.toString(port), dir.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("ferretdb.log").toFile()).start();
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < giveUp) {
      if (!process.isAlive()) {
        throw new IllegalStateException("FerretDB exited with " + process.exitValue() + " at start; see " + dir.resolve("ferretdb.log"));
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return;
      } catch (IOException notYet) {
        Thread.sleep(100);
      }
    }
    kill();
    throw new IllegalStateException("FerretDB did not listen on 127.0.0.1:" + port + " within 60 s; see " + dir.resolve("ferretdb.log"));
  }

  @Override
  public void close() throws InterruptedException {
    kill();
  }
}
