package org.geoshard.geo.dataset;

/**
 * Great-circle geometry on a sphere of radius {@value #EARTH_RADIUS_METERS} m, the radius MongoDB's
 * spherical queries and PostGIS's sphere both approximate the Earth with.
 */
public final class Sphere {
  public static final double EARTH_RADIUS_METERS = 6_371_000.0;

  private Sphere() {
  }

  /**
   * The point {@code distanceMeters} from a start point along the initial bearing {@code bearing}
   * (radians, clockwise from north). Returns {longitude, latitude} in degrees, longitude wrapped into
   * [-180, 180]; the latitude stays in [-90, 90] by construction, also across the poles.
   */
  public static double[] destination(double longitude, double latitude, double bearing, double distanceMeters) {
    double phi1 = Math.toRadians(latitude);
    double lambda1 = Math.toRadians(longitude);
    double delta = distanceMeters / EARTH_RADIUS_METERS;
    double sinPhi1 = Math.sin(phi1);
    double cosPhi1 = Math.cos(phi1);
    double sinDelta = Math.sin(delta);
    double cosDelta = Math.cos(delta);
    double sinPhi2 = sinPhi1 * cosDelta + cosPhi1 * sinDelta * Math.cos(bearing);
    sinPhi2 = Math.max(-1, Math.min(1, sinPhi2));
    double phi2 = Math.asin(sinPhi2);
    double lambda2 = lambda1 + Math.atan2(Math.sin(bearing) * sinDelta * cosPhi1, cosDelta - sinPhi1 * sinPhi2);
    return new double[] {wrapLongitude(Math.toDegrees(lambda2)), Math.toDegrees(phi2)};
  }

  /** Haversine distance in metres between two points given in degrees. */
  public static double distanceMeters(double lon1, double lat1, double lon2, double lat2) {
    double phi1 = Math.toRadians(lat1);
    double phi2 = Math.toRadians(lat2);
    double dPhi = phi2 - phi1;
    double dLambda = Math.toRadians(lon2 - lon1);
    double a = Math.sin(dPhi / 2) * Math.sin(dPhi / 2)
        + Math.cos(phi1) * Math.cos(phi2) * Math.sin(dLambda / 2) * Math.sin(dLambda / 2);
    return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(a)));
  }

  /** Wraps a longitude into [-180, 180]. */
  public static double wrapLongitude(double longitude) {
    if (longitude >= -180 && longitude <= 180) {
      return longitude;
    }
    double wrapped = ((longitude + 180) % 360 + 360) % 360 - 180;
    return wrapped == -180 && longitude > 0 ? 180 : wrapped;
  }
}
