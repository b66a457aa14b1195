package org.geoshard.harness.api;

import java.util.List;
import site.ycsb.DBException;

/**
 * Implemented by a binding whose database may run on this machine: it names the database's local
 * processes, so that the harness can trace what they do (block I/O with {@code trace.io}). The harness
 * asks a binding instance of its own, once, before the first traced stage.
 */
public interface ServerProcesses {
  /**
   * The process ids of the database server's root processes on this machine (e.g. PostgreSQL's
   * postmaster): these and their direct children are traced. Empty when the server is not local or
   * its processes cannot be seen from here.
   */
  List<Long> localServerPids() throws DBException;

  /** A short name for the node these processes serve, used as the trace file's name. */
  default String localNodeName() {
    return "localhost";
  }
}
