package org.geoshard.harness.observe;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One running bpftrace process tracing block requests ({@link BlockTraceScript}), appending each
 * request to a CSV file as it completes. {@link #start} returns once the probes are attached;
 * {@link #stop} ends the process (bpftrace runs its END block on SIGTERM, which counts the requests
 * that started and completed) and returns what it saw.
 */
public final class BlockTracer {
  private static final long ATTACH_TIMEOUT_S = 60;
  private static final Pattern COUNTS = Pattern.compile(
      Pattern.quote(BlockTraceScript.COUNTS) + "(\\d+) started, (\\d+) completed");

  private final Process process;
  private final Thread reader;
  private final List<BlockRequest> requests = Collections.synchronizedList(new ArrayList<>());
  private final StringBuilder errors = new StringBuilder();
  private final CountDownLatch attached = new CountDownLatch(1);
  private volatile IOException readFailure;
  private final List<String> tracepoints;
  private volatile long started = -1;
  private volatile long completed = -1;

  private BlockTracer(List<String> tracepoints, Process process, BufferedWriter csv, String stage, long epochMsAtNanos0,
      long nanos0) {
    this.tracepoints = tracepoints;
    this.process = process;
    this.reader = new Thread(() -> read(csv, stage, epochMsAtNanos0, nanos0), "io-trace-" + stage);
    this.reader.setDaemon(true);
    this.reader.start();
    Thread err = new Thread(this::readErrors, "io-trace-errors-" + stage);
    err.setDaemon(true);
    err.start();
  }

  /**
   * Starts bpftrace and waits until it traces.
   *
   * @param program the program ({@link BlockTraceScript#program}); the trace records the tracepoints it names
   * @param command the bpftrace executable
   * @param csv the file the requests are appended to (created with its header when missing)
   * @throws IOException bpftrace could not start or did not attach its probes; the message says why
   */
  public static BlockTracer start(String command, String program, Path csv, String stage)
      throws IOException {
    Path script = Files.createTempFile("geoshard-io", ".bt");
    Files.writeString(script, program, StandardCharsets.UTF_8);
    // Both clocks read together: bpftrace's nsecs and System.nanoTime are CLOCK_MONOTONIC on Linux.
    long nanos0 = System.nanoTime();
    long epochMs0 = System.currentTimeMillis();
    Process p;
    try {
      p = new ProcessBuilder(command, script.toString()).start();
    } catch (IOException e) {
      Files.deleteIfExists(script);
      throw new IOException("'" + command + "' could not be started (" + e.getMessage() + "); install bpftrace"
          + " (Debian package bpftrace)", e);
    }
    boolean fresh = !Files.exists(csv);
    Files.createDirectories(csv.getParent());
    BufferedWriter out = Files.newBufferedWriter(csv, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND);
    if (fresh) {
      out.write(BlockRequest.CSV_HEADER);
      out.newLine();
    }
    BlockTracer tracer = new BlockTracer(BlockTraceScript.tracepoints(program), p, out, stage, epochMs0, nanos0);
    try {
      boolean ok = tracer.attached.await(ATTACH_TIMEOUT_S, TimeUnit.SECONDS);
      if (!ok || !p.isAlive()) {
        tracer.stop();
        if (fresh) {
          Files.deleteIfExists(csv);  // nothing was traced: no file that looks like a quiet disk
        }
        throw new IOException("bpftrace did not start tracing: " + tracer.reason());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      tracer.stop();
      throw new IOException("interrupted while bpftrace attached its probes", e);
    } finally {
      Files.deleteIfExists(script);
    }
    return tracer;
  }

  /** Ends the trace; returns every request it saw (the CSV file holds the same) and its counts. */
  public BlockTrace stop() throws IOException {
    // SIGTERM through the handle: Process.destroy() would also close the output we still have to read.
    process.toHandle().destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      reader.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    if (readFailure != null) {
      throw readFailure;
    }
    synchronized (requests) {
      return new BlockTrace(tracepoints, requests, started, completed);
    }
  }

  /** What bpftrace said on standard error, without its harmless memlock warning. */
  String reason() {
    synchronized (errors) {
      String text = errors.toString().strip();
      return text.isEmpty() ? "it exited with code " + (process.isAlive() ? "(still running)" : process.exitValue())
          : text;
    }
  }

  private void read(BufferedWriter csv, String stage, long epochMs0, long nanos0) {
    try (csv; BufferedReader in = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith(BlockTraceScript.ANCHOR)) {
          attached.countDown();
          continue;
        }
        Matcher counts = COUNTS.matcher(line);
        if (counts.matches()) {
          started = Long.parseLong(counts.group(1));
          completed = Long.parseLong(counts.group(2));
          continue;
        }
        BlockRequest r = BlockRequest.parse(line);
        if (r != null) {
          requests.add(r);
          csv.write(r.csv(epochMs0, nanos0, stage));
          csv.newLine();
        }
      }
    } catch (IOException | UncheckedIOException e) {
      readFailure = e instanceof IOException io ? io : ((UncheckedIOException) e).getCause();
    } finally {
      attached.countDown();
    }
  }

  private void readErrors() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.contains("RLIMIT_MEMLOCK") || line.startsWith("Attaching")) {
          continue;  // bpftrace warns about the memlock limit even when the program loads fine
        }
        synchronized (errors) {
          if (errors.length() < 2000) {
            errors.append(line).append(' ');
          }
        }
      }
    } catch (IOException e) {
      // the process ended; what it said so far is kept
    }
  }
}
