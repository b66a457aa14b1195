package org.geoshard.mongodb.async;

import org.geoshard.harness.binding.Binding;
import org.geoshard.mongodb.FerretSuite;
import org.geoshard.mongodb.MongoBinding;

/** {@code mongodb-async} (reactive streams driver) against FerretDB, which is NOT MongoDB: see {@link FerretSuite}. */
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
