package org.geoshard.geo.query;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;

/**
 * One client thread's walk through the study's search sessions, one query per step: a basic query;
 * then the session ends ({@code geo.proportion.end}), or repeats the query with one filter
 * ({@code geo.proportion.filter}), or asks for the next page ({@code geo.proportion.nextpage}), which
 * happens only when the basic query returned a full page (otherwise the session ends).
 */
public final class QuerySession {
  /** What the next step does. */
  public enum Step {
    GEO_NEAR,
    GEO_NEAR_FILTERED,
    GEO_NEXT_PAGE
  }

  /** Distances closer than this are the same: client and server compute them slightly differently. */
  static final double SAME_DISTANCE_METERS = 0.001;

  private final QueryGenerator generator;
  private final SplittableRandom random;
  private final Paging paging;
  private final double endProportion;
  private final double filterProportion;
  private final List<GeoHit> hits = new ArrayList<>();
  private Step next = Step.GEO_NEAR;
  private GeoQuery basic;
  private final LongAdder pagesNotFull;

  /** @param pagesNotFull counts sessions that wanted a next page after a page that was not full */
  public QuerySession(QueryGenerator generator, GeoSettings settings, SplittableRandom random, LongAdder pagesNotFull) {
    this.generator = generator;
    this.random = random;
    this.paging = settings.paging();
    this.endProportion = settings.endProportion();
    this.filterProportion = settings.filterProportion();
    this.pagesNotFull = pagesNotFull;
  }

  public Step nextStep() {
    return next;
  }

  /** The query of the next step; call {@link #completed(List)} with its results afterwards. */
  public GeoQuery nextQuery() {
    switch (next) {
      case GEO_NEAR -> {
        basic = generator.basic(random);
        return basic;
      }
      case GEO_NEAR_FILTERED -> {
        return basic.withFilter(generator.filter(random));
      }
      default -> {
        return paging == Paging.SKIP ? basic.withSkip(basic.limit()) : afterLastHit(basic, hits);
      }
    }
  }

  /** The results the database returned for {@link #nextQuery()}; decides the step after it. */
  public void completed(List<GeoHit> results) {
    if (next != Step.GEO_NEAR) {
      next = Step.GEO_NEAR;
      return;
    }
    hits.clear();
    hits.addAll(results);
    double u = random.nextDouble();
    if (u < endProportion) {
      next = Step.GEO_NEAR;
    } else if (u < endProportion + filterProportion) {
      next = Step.GEO_NEAR_FILTERED;
    } else if (results.size() >= basic.limit()) {
      next = Step.GEO_NEXT_PAGE;
    } else {
      pagesNotFull.increment();
      next = Step.GEO_NEAR;
    }
  }

  /**
   * The page after {@code hits} by distance: at least as far as the last hit, leaving out the hits
   * at that distance (within {@link #SAME_DISTANCE_METERS}), which the previous page already returned.
   */
  static GeoQuery afterLastHit(GeoQuery basic, List<GeoHit> hits) {
    double last = hits.get(hits.size() - 1).distanceMeters();
    Set<Long> atLast = new HashSet<>();
    for (GeoHit hit : hits) {
      if (hit.distanceMeters() >= last - SAME_DISTANCE_METERS) {
        atLast.add(hit.restaurant().id());
      }
    }
    return basic.withMinDistance(Math.max(0, last - SAME_DISTANCE_METERS), atLast);
  }
}
