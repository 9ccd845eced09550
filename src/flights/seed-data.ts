/** Real airports (IATA, position) and aircraft types for believable sample schedules. */
export type Airport = { code: string; lat: number; lon: number };

export const AIRPORTS: readonly Airport[] = [
  { code: 'DUB', lat: 53.4213, lon: -6.2701 },
  { code: 'LHR', lat: 51.47, lon: -0.4543 },
  { code: 'LGW', lat: 51.1537, lon: -0.1821 },
  { code: 'CDG', lat: 49.0097, lon: 2.5479 },
  { code: 'AMS', lat: 52.3105, lon: 4.7683 },
  { code: 'FRA', lat: 50.0379, lon: 8.5622 },
  { code: 'MUC', lat: 48.3537, lon: 11.775 },
  { code: 'MAD', lat: 40.4983, lon: -3.5676 },
  { code: 'BCN', lat: 41.2974, lon: 2.0833 },
  { code: 'LIS', lat: 38.7742, lon: -9.1342 },
  { code: 'FCO', lat: 41.8003, lon: 12.2389 },
  { code: 'MXP', lat: 45.6306, lon: 8.7281 },
  { code: 'ZRH', lat: 47.4582, lon: 8.5555 },
  { code: 'VIE', lat: 48.1103, lon: 16.5697 },
  { code: 'CPH', lat: 55.618, lon: 12.656 },
  { code: 'OSL', lat: 60.1976, lon: 11.1004 },
  { code: 'ARN', lat: 59.6519, lon: 17.9186 },
  { code: 'HEL', lat: 60.3172, lon: 24.9633 },
  { code: 'WAW', lat: 52.1657, lon: 20.9671 },
  { code: 'ATH', lat: 37.9364, lon: 23.9445 },
  { code: 'IST', lat: 41.2753, lon: 28.7519 },
  { code: 'KEF', lat: 63.985, lon: -22.6056 },
  { code: 'JFK', lat: 40.6413, lon: -73.7781 },
  { code: 'BOS', lat: 42.3656, lon: -71.0096 },
  { code: 'ORD', lat: 41.9742, lon: -87.9073 },
  { code: 'YYZ', lat: 43.6777, lon: -79.6248 },
  { code: 'DXB', lat: 25.2532, lon: 55.3657 },
  { code: 'EDI', lat: 55.95, lon: -3.3725 },
];

/** ICAO type designators with a typical cruise speed (km/h) and range (km). */
export type AircraftType = { type: string; speedKmh: number; rangeKm: number };

export const AIRCRAFT_TYPES: readonly AircraftType[] = [
  { type: 'A20N', speedKmh: 830, rangeKm: 6_300 },
  { type: 'A21N', speedKmh: 830, rangeKm: 7_400 },
  { type: 'A320', speedKmh: 830, rangeKm: 6_100 },
  { type: 'B38M', speedKmh: 840, rangeKm: 6_500 },
  { type: 'B738', speedKmh: 840, rangeKm: 5_400 },
  { type: 'AT76', speedKmh: 510, rangeKm: 1_400 },
  { type: 'E195', speedKmh: 820, rangeKm: 4_000 },
  { type: 'A333', speedKmh: 870, rangeKm: 11_000 },
  { type: 'B789', speedKmh: 900, rangeKm: 14_000 },
];
