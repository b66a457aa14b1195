package org.geoshard.mongodb;

import org.geoshard.harness.binding.Binding;

/** {@code mongodb-geo} (sync driver) against FerretDB, which is NOT MongoDB: see {@link FerretSuite}. */
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
