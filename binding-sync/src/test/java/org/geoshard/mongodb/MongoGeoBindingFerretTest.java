package org.geoshard.mongodb;

import org.geoshard.harness.binding.Binding;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** {@code mongodb-geo} (sync driver) against FerretDB, which is NOT MongoDB: see {@link FerretSuite}. */
// JUnit does not inherit the condition from FerretSuite: without the server's address, skipped.
@EnabledIfSystemProperty(named = FerretServer.URL_PROPERTY, matches = ".+")
class MongoGeoBindingFerretTest extends FerretSuite {
  @Override
  protected MongoBinding newBinding() {
    return new MongoGeoBinding();
  }

  @Override
  protected Binding harnessBinding() {
    return new Binding("mongodb-geo", MongoGeoBinding.class);
  }
}
