package org.geoshard.mongodb;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoCredential;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.connection.ClusterDescription;
import com.mongodb.connection.ServerDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.api.Secrets;

/**
 * Turns what the driver throws into one sentence a user can act on: where the binding tried (the URL,
 * masked), what went wrong, and what to check. Every message passes through {@link Secrets#maskText}.
 */
public final class Failures {
  static final int UNAUTHORIZED = 13;
  static final int AUTHENTICATION_FAILED = 18;

  private Failures() {
  }

  /** The sentence for a failure to reach or use the server at {@code settings}' URL. */
  public static String describe(Throwable e, MongoSettings settings, String effectiveUrl, ClusterDescription cluster) {
    String where = settings.connection().throwaway() == null ? settings.connection().maskedUrl()
        : settings.connection().maskedUrl() + " (" + Secrets.maskText(effectiveUrl) + ")";
    MongoSecurityException security = find(e, MongoSecurityException.class);
    if (security != null) {
      return "Authentication failed at " + where + authenticationDetail(security.getCredential(), security)
          + ": check the user name, password and authSource in " + MongoSettings.URL + ".";
    }
    MongoCommandException command = find(e, MongoCommandException.class);
    if (command != null && command.getErrorCode() == AUTHENTICATION_FAILED) {
      return "Authentication failed at " + where + ": " + command.getErrorMessage()
          + "; check the user name, password and authSource in " + MongoSettings.URL + ".";
    }
    if (command != null && command.getErrorCode() == UNAUTHORIZED) {
      return "The user of " + where + " is not authorized: " + command.getErrorMessage()
          + " (the binding needs readWrite on database '" + settings.connection().database()
          + "', and clusterManager/clusterMonitor to prepare and describe a sharded cluster).";
    }
    if (find(e, MongoTimeoutException.class) != null) {
      // The request's deadline bounds the server selection too: say which of the two ended the wait.
      boolean deadline = settings.connection().timeout(TimeUnit.MILLISECONDS) < settings.connection().serverSelectionTimeout(TimeUnit.MILLISECONDS);
      String within = deadline ? settings.connection().timeout(TimeUnit.MILLISECONDS) + " ms"
          : settings.connection().serverSelectionTimeout(TimeUnit.SECONDS) + " s";
      return "No MongoDB server answered at " + where + " within " + within + tried(cluster)
          + "; check " + MongoSettings.URL + " and that the server runs ("
          + (deadline ? MongoSettings.TIMEOUT_MS : MongoSettings.SERVER_SELECTION_TIMEOUT) + " sets how long to wait).";
    }
    return "MongoDB at " + where + " failed: " + Secrets.maskText(brief(e));
  }

  private static String authenticationDetail(MongoCredential credential, Throwable e) {
    StringBuilder out = new StringBuilder();
    if (credential != null && credential.getUserName() != null) {
      out.append(" for user '").append(credential.getUserName()).append("' (authSource '").append(credential.getSource())
          .append("')");
    }
    MongoCommandException cause = find(e, MongoCommandException.class);
    if (cause != null) {
      out.append(": ").append(cause.getErrorMessage());
    }
    return out.toString();
  }

  /** " (tried host:port: Connection refused; ...)", from the driver's view of each server. */
  static String tried(ClusterDescription cluster) {
    if (cluster == null) {
      return "";
    }
    List<String> servers = new ArrayList<>();
    for (ServerDescription server : cluster.getServerDescriptions()) {
      Throwable problem = server.getException();
      servers.add(server.getAddress() + (problem == null ? ": " + server.getState().name().toLowerCase(java.util.Locale.ROOT)
          : ": " + rootMessage(problem)));
    }
    if (cluster.getSrvResolutionException() != null) {
      servers.add("DNS SRV lookup: " + rootMessage(cluster.getSrvResolutionException()));
    }
    return servers.isEmpty() ? "" : " (tried " + String.join("; ", servers) + ")";
  }

  /** The server's own words ("errmsg (code 11000)") for a server error, else the root cause's message. */
  public static String brief(Throwable e) {
    com.mongodb.MongoServerException server = find(e, com.mongodb.MongoServerException.class);
    if (server instanceof MongoCommandException command) {
      return command.getErrorMessage() + " (code " + command.getErrorCode() + ")";
    }
    if (server instanceof com.mongodb.MongoWriteException write) {
      return write.getError().getMessage() + " (code " + write.getError().getCode() + ")";
    }
    return rootMessage(e);
  }

  /**
   * The server's answer as a sentence's end: "the server answered IndexNotFound (code 27): index not found
   * with name [x]" for a server error, else what went wrong ("Timed out after 30000 ms ...").
   */
  static String answer(Throwable e) {
    com.mongodb.MongoServerException server = find(e, com.mongodb.MongoServerException.class);
    if (server instanceof MongoCommandException command) {
      String name = command.getErrorCodeName();
      return "the server answered " + (name == null || name.isBlank() ? "" : name + " ") + "(code "
          + command.getErrorCode() + "): " + command.getErrorMessage();
    }
    if (server != null) {
      return "the server answered " + brief(server);
    }
    return rootMessage(e);
  }

  /**
   * The preparation's steps, a driver's or server's failure in one said as one sentence naming the step,
   * the collection it works on (when the step's name does not) and the server's answer, never the
   * driver's whole text (the full reply, a stack).
   */
  static Preparable.Steps sayingTheServersAnswer(Preparable.Steps steps, String namespace) {
    String on = namespace == null ? "" : " on " + namespace;
    return (name, work) -> steps.step(name, () -> {
      try {
        return work.run();
      } catch (com.mongodb.MongoException e) {
        throw new site.ycsb.DBException("step '" + name + "'" + on + " failed: " + answer(e), e);
      }
    });
  }

  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return message == null || message.isBlank() ? root.getClass().getSimpleName() : message;
  }

  static <T extends Throwable> T find(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
