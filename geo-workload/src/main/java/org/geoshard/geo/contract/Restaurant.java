package org.geoshard.geo.contract;

/**
 * One restaurant document. {@code id} is its number k in the dataset (0 &lt;= k &lt; total), which
 * bindings store as the document key.
 *
 * @param longitude degrees in [-180, 180]
 * @param latitude degrees in [-90, 90]
 */
public record Restaurant(long id, String name, String city, String cuisine, int opened, int rating, int reviews,
                         String pricing, boolean outsideArea, double longitude, double latitude) {

  /** Field names as stored, the study's. */
  public static final String ID = "_id";
  public static final String NAME = "Name";
  public static final String CITY = "City";
  public static final String CUISINE = "Cuisine";
  public static final String OPENED = "Opened";
  public static final String RATING = "Rating";
  public static final String REVIEWS = "Reviews";
  public static final String PRICING = "Pricing";
  public static final String OUTSIDE_AREA = "Outside_area";
  public static final String LOCATION = "location";
}
