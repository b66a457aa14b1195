package org.geoshard.geo.cells;

import com.google.common.geometry.S1Angle;
import com.google.common.geometry.S2Cap;
import com.google.common.geometry.S2CellId;
import com.google.common.geometry.S2LatLng;
import com.google.common.geometry.S2RegionCoverer;
import java.util.ArrayList;
import java.util.Arrays;
import org.geoshard.geo.contract.GeoQuery;

/**
 * S2 cells of one level (Google's S2 library, the cells MongoDB's 2dsphere index is built on): the
 * cell of a location and the covering of a near query's spherical cap, as 64-bit S2 cell ids.
 * Immutable and thread-safe.
 *
 * <p>Ids are compared as Java (signed) longs everywhere, as MongoDB and PostgreSQL compare the
 * stored {@code cell}: the faces 4 and 5 (ids with the top bit set) sort first, the rest of the
 * Hilbert curve keeps its order, so a range of ids is still a contiguous stretch of the curve.
 */
public final class CellGrid {
  public static final int MAX_LEVEL = S2CellId.MAX_LEVEL;

  /**
   * The smallest Earth radius any store could measure with (the polar radius): a cap of r metres on
   * it is the widest angle any store's r can mean (PostGIS uses 6,371,008.8 m, MongoDB 6,378,100 m),
   * so the covering holds every restaurant any of them finds. One metre more absorbs rounding.
   */
  static final double SMALLEST_EARTH_RADIUS_METERS = 6_356_752;
  static final double MARGIN_METERS = 1;

  /**
   * Beyond this many cells a covering is not worth sending (radii of hundreds of kilometres): such a
   * query goes without it, to every shard, and still gets the same answer.
   */
  public static final int MAX_COVERING_CELLS = 1_000;

  private final int level;
  private final S2RegionCoverer coverer;

  public CellGrid(int level) {
    if (level < 0 || level > MAX_LEVEL) {
      throw new IllegalArgumentException("S2 level must be in [0, " + MAX_LEVEL + "]: " + level);
    }
    this.level = level;
    this.coverer = S2RegionCoverer.builder().setMinLevel(level).setMaxLevel(level)
        .setMaxCells(Integer.MAX_VALUE).build();
  }

  public int level() {
    return level;
  }

  /** The id of the cell of this level that holds the point. */
  public long cellOf(double longitude, double latitude) {
    return S2CellId.fromLatLng(S2LatLng.fromDegrees(latitude, longitude)).parent(level).id();
  }

  /**
   * The cells of this level that cover the query's cap (centre, {@code maxDistanceMeters}), sorted
   * by id; null when there are more than {@link #MAX_COVERING_CELLS}.
   */
  public long[] covering(GeoQuery query) {
    return covering(query.longitude(), query.latitude(), query.maxDistanceMeters());
  }

  /** See {@link #covering(GeoQuery)}. */
  public long[] covering(double longitude, double latitude, double radiusMeters) {
    S1Angle angle = S1Angle.radians((radiusMeters + MARGIN_METERS) / SMALLEST_EARTH_RADIUS_METERS);
    S2Cap cap = S2Cap.fromAxisAngle(S2LatLng.fromDegrees(latitude, longitude).toPoint(), angle);
    ArrayList<S2CellId> cells = new ArrayList<>();
    coverer.getCovering(cap, cells);
    if (cells.size() > MAX_COVERING_CELLS) {
      return null;
    }
    long[] ids = new long[cells.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = cells.get(i).id();
    }
    Arrays.sort(ids);
    return ids;
  }
}
