package org.geoshard.mongodb.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.api.WaitingNotice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server when no {@code mongodb.url} is given: FerretDB (NOT MongoDB: a MongoDB-wire server on
 * SQLite) started through {@code bin/ferretdb run} on a free loopback port, its data and log in a
 * directory of its own. It serves the reads both clients make; its speed says nothing of MongoDB's,
 * only the client's share of the cost is compared. Closing it stops the server.
 */
final class StandIn implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StandIn.class);
  static final Duration START_WAIT = Duration.ofSeconds(60);

  private final Process process;
  private final int port;
  private final Path log;

  private StandIn(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /**
   * Builds FerretDB if it is not cached yet (its own lines say so), starts it and waits until it
   * listens, saying what it waits for after a second.
   *
   * @param launcher {@code bin/ferretdb}
   */
  static StandIn start(Path launcher, Path dir) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    // A first build takes minutes: bin/ferretdb says so on standard error, which goes to ours.
    int built = new ProcessBuilder(launcher.toString(), "build").redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start().waitFor();
    if (built != 0) {
      throw new IOException(launcher + " build failed (exit " + built + "; its lines above).");
    }
    int port = freePort();
    Path log = dir.resolve("ferretdb.log");
    LOG.info("No mongodb.url: starting FerretDB (NOT MongoDB) on 127.0.0.1:{} as the stand-in (bin/ferretdb run,"
        + " its log in {}).", port, log);
    // bin/ferretdb run execs the server (under its memory cap): this process is the server itself.
    Process process = new ProcessBuilder(launcher.toString(), "run", Integer.toString(port), dir.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    StandIn standIn = new StandIn(process, port, log);
    try (WaitingNotice notice = WaitingNotice.start("FerretDB on 127.0.0.1:" + port, START_WAIT,
        "the stand-in's start; -p mongodb.url=... uses a server of your own", LOG::info)) {
      standIn.awaitListening();
    } catch (IOException | InterruptedException | RuntimeException e) {
      standIn.close();
      throw e;
    }
    return standIn;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private void awaitListening() throws IOException, InterruptedException {
    long giveUp = System.nanoTime() + START_WAIT.toNanos();
    while (System.nanoTime() < giveUp) {
      if (!process.isAlive()) {
        throw new IOException("FerretDB exited with " + process.exitValue() + " at start: " + tail());
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
        return;
      } catch (IOException notYet) {
        Thread.sleep(100);
      }
    }
    throw new IOException("FerretDB did not listen on 127.0.0.1:" + port + " within " + START_WAIT.toSeconds()
        + " s: " + tail());
  }

  private String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return lines.isEmpty() ? "its log " + log + " is empty"
          : String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    } catch (IOException e) {
      return "see " + log;
    }
  }

  /** {@code mongodb://127.0.0.1:PORT/database}. */
  String url(String database) {
    return "mongodb://127.0.0.1:" + port + "/" + database;
  }

  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it; idempotent. */
  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
