package org.geoshard.geo.query;

/** How "next page" is asked for: skipping the first page (the study's) or from the last distance seen. */
public enum Paging {
  SKIP,
  MIN_DISTANCE
}
