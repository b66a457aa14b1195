package org.geoshard.mongodb.async;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandSucceededEvent;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.geoshard.mongodb.InProcessMongo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import site.ycsb.Status;

/**
 * The reactive clients' socket I/O runs on threads of their own, which end with the clients. On the
 * driver's default (the JVM's shared channel group) a thread stays in the kernel's epoll wait until the
 * process ends, and the JVM's exit waits up to 300 ms for threads in native code: every mongodb-async
 * command, Ctrl-C included, ended 0.3 s after its last line.
 */
class ReactiveClientThreadsTest {
  private static final String PREFIX = "geoshard-async-io-";
  private MongoServer server;

  @BeforeEach
  void start() {
    server = new MongoServer(new MemoryBackend().version(InProcessMongo.wireVersion8()));
    server.bind("127.0.0.1", 0);
  }

  @AfterEach
  void stop() {
    server.shutdownNow();
  }

  @Test
  void theReactiveClientsReplyOnTheirOwnThreadsAndTheyEndWithTheClients() throws Exception {
    Set<String> replyThreads = ConcurrentHashMap.newKeySet();
    CommandListener listener = new CommandListener() {
      @Override
      public void commandSucceeded(CommandSucceededEvent event) {
        replyThreads.add(Thread.currentThread().getName());
      }
    };
    Properties p = new Properties();
    p.setProperty("mongodb.url", "mongodb://127.0.0.1:" + server.getLocalAddress().getPort() + "/ycsb");
    p.setProperty("mongodb.serverSelectionTimeout", "2");
    MongoAsyncBinding db = new MongoAsyncBinding(List.of(listener));
    db.setProperties(p);
    db.init();
    String caller = Thread.currentThread().getName();
    try {
      HashMap<String, site.ycsb.ByteIterator> values = new HashMap<>();
      values.put("field0", new site.ycsb.StringByteIterator("v"));
      assertThat(db.insert("usertable", "user1", values)).isEqualTo(Status.OK);
      assertThat(db.read("usertable", "user1", null, new HashMap<>())).isEqualTo(Status.OK);
    } finally {
      db.cleanup();
    }
    // The sync control client replies on the calling thread; every reactive reply on a thread of the client's own.
    assertThat(replyThreads).as("threads the replies came on").anyMatch(name -> name.startsWith(PREFIX))
        .allMatch(name -> name.equals(caller) || name.startsWith(PREFIX));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline && !ioThreads().isEmpty()) {
      Thread.sleep(20);
    }
    assertThat(ioThreads()).as("the clients' I/O threads after their close").isEmpty();
  }

  private static List<String> ioThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
        .filter(name -> name.startsWith(PREFIX)).toList();
  }
}
