package org.geoshard.mongodb;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of a server that can stop forwarding while it keeps every connection open:
 * what a half-open WAN link or a frozen server looks like to a client (no error, no answer). After
 * {@link #stall()} it forwards nothing more, accepts new connections and holds them too.
 */
public final class StallingProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final int targetPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final Object gate = new Object();
  private volatile boolean stalled;
  private volatile boolean closed;

  public StallingProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "stalling-proxy-" + port());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** {@code mongodb://127.0.0.1:<proxy port>/<database>}. */
  public String url(String database) {
    return "mongodb://127.0.0.1:" + port() + "/" + database;
  }

  /** From now on nothing is forwarded in either direction; every connection stays open. */
  public void stall() {
    stalled = true;
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        sockets.add(client);
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        sockets.add(server);
        pump(client.getInputStream(), server.getOutputStream());
        pump(server.getInputStream(), client.getOutputStream());
      } catch (IOException e) {
        return;  // closed
      }
    }
  }

  private void pump(InputStream in, OutputStream out) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[16 * 1024];
      try {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          holdWhileStalled();
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException | InterruptedException e) {
        // the proxy or a peer closed the connection
      }
    }, "stalling-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private void holdWhileStalled() throws InterruptedException {
    synchronized (gate) {
      while (stalled && !closed) {
        gate.wait(100);
      }
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    listener.close();
    for (Socket s : sockets) {
      s.close();
    }
  }
}
