package org.geoshard.mongodb;

import com.mongodb.event.CommandListener;
import java.util.List;

/** A {@code mongodb-geo} binding with listeners on its client, for tests outside this package (test-jar). */
public final class ListenedBindings {
  private ListenedBindings() {
  }

  public static MongoGeoBinding sync(List<CommandListener> listeners) {
    return new MongoGeoBinding(listeners);
  }
}
