package org.geoshard.geo.dataset;

import java.util.SplittableRandom;

/**
 * How a point is placed around a centre within a radius: the angle is uniform in [0, 2π); the
 * distance is uniform in [0, R] ({@link #UNIFORM_DISTANCE}, the study's choice, denser near the centre)
 * or R·√u ({@link #UNIFORM_AREA}, uniform over the disc).
 */
public enum Placement {
  UNIFORM_DISTANCE,
  UNIFORM_AREA;

  /** Returns {longitude, latitude}; draws exactly two numbers from {@code random}, angle first. */
  public double[] place(SplittableRandom random, double longitude, double latitude, double radiusMeters) {
    double bearing = random.nextDouble() * 2 * Math.PI;
    double u = random.nextDouble();
    double distance = this == UNIFORM_DISTANCE ? u * radiusMeters : radiusMeters * Math.sqrt(u);
    return Sphere.destination(longitude, latitude, bearing, distance);
  }
}
