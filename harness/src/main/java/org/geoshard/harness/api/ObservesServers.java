package org.geoshard.harness.api;

import java.util.List;
import site.ycsb.DBException;

/**
 * Implemented by a binding that can say how its servers are doing while a phase runs: one
 * {@link ServerProbe} per node it knows (every router, every shard's primary, the config server; or
 * the one database server). The harness asks a binding instance of its own once per phase, samples the
 * probes on its own clock into {@code servers.csv} and closes them at the end; the probes must hold
 * connections of their own, since that instance is cleaned up right after the call.
 */
public interface ObservesServers {
  /** The probes of every node; an empty list when there is nothing to observe. */
  List<ServerProbe> serverProbes() throws DBException;
}
