package org.geoshard.mongodb.async;

import org.geoshard.harness.binding.Binding;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.geoshard.mongodb.FerretServer;
import org.geoshard.mongodb.FerretSuite;
import org.geoshard.mongodb.MongoBinding;

/** {@code mongodb-async} (reactive streams driver) against FerretDB, which is NOT MongoDB: see {@link FerretSuite}. */
// JUnit does not inherit the condition from FerretSuite: without the server's address, skipped.
@EnabledIfSystemProperty(named = FerretServer.URL_PROPERTY, matches = ".+")
class MongoAsyncBindingFerretTest extends FerretSuite {
  @Override
  protected MongoBinding newBinding() {
    return new MongoAsyncBinding();
  }

  @Override
  protected Binding harnessBinding() {
    return new Binding("mongodb-async", MongoAsyncBinding.class);
  }
}
