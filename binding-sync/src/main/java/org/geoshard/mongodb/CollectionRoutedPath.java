package org.geoshard.mongodb;

import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.result.DeleteResult;
import com.mongodb.client.result.UpdateResult;
import java.util.List;
import java.util.function.Consumer;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * Sends the requests on one collection through a path of their own and every other request through
 * the main path: the pilot's topology, History on one cluster and LastKnownLocation on another
 * ({@code mongodb.ll.lkl.url}). Works over either binding's main path.
 */
final class CollectionRoutedPath implements RequestPath {
  private final RequestPath main;
  private final String collection;
  private final RequestPath own;

  CollectionRoutedPath(RequestPath main, String collection, RequestPath own) {
    this.main = main;
    this.collection = collection;
    this.own = own;
  }

  private RequestPath to(String name) {
    return collection.equals(name) ? own : main;
  }

  @Override
  public void find(Op op, String name, Find find, Consumer<Document> sink) {
    to(name).find(op, name, find, sink);
  }

  @Override
  public Document first(Op op, String name, Find find) {
    return to(name).first(op, name, find);
  }

  @Override
  public void insertOne(Op op, String name, Document document) {
    to(name).insertOne(op, name, document);
  }

  @Override
  public void upsertById(Op op, String name, Document document) {
    to(name).upsertById(op, name, document);
  }

  @Override
  public UpdateResult updateOne(Op op, String name, Document filter, Bson update, UpdateOptions options) {
    return to(name).updateOne(op, name, filter, update, options);
  }

  @Override
  public DeleteResult deleteOne(Op op, String name, Document filter) {
    return to(name).deleteOne(op, name, filter);
  }

  @Override
  public Written writeMany(Op op, String name, List<Document> documents, boolean upsert) {
    return to(name).writeMany(op, name, documents, upsert);
  }

  @Override
  public void warmUp(String name) {
    to(name).warmUp(name);
  }
}
