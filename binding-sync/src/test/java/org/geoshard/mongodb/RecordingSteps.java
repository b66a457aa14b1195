package org.geoshard.mongodb;

import java.util.LinkedHashMap;
import java.util.Map;
import org.geoshard.harness.api.Preparable;
import site.ycsb.DBException;

/** Runs preparation steps as the harness does (in order, failures passed on) and keeps what each returned. */
final class RecordingSteps implements Preparable.Steps {
  final Map<String, Map<String, Object>> steps = new LinkedHashMap<>();

  @Override
  public void step(String name, Preparable.Work work) throws DBException {
    try {
      Map<String, Object> details = work.run();
      steps.put(name, details == null ? Map.of() : details);
    } catch (DBException e) {
      throw e;
    } catch (Exception e) {
      throw new DBException(name + ": " + e.getMessage(), e);
    }
  }
}
