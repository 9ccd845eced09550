import type { flights } from '../db/schema.ts';
import type { FlightStatus } from './flight-schemas.ts';
import { AIRCRAFT_TYPES, AIRPORTS, type Airport } from './seed-data.ts';

type NewFlight = typeof flights.$inferInsert;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Small deterministic PRNG: the same seed gives the same schedule. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function distanceKm(a: Airport, b: Airport): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Status as an operations board would show it at `now`. */
function statusAt(departure: number, arrival: number, now: number, roll: number): FlightStatus {
  if (roll < 0.03) return 'cancelled';
  if (arrival <= now) return 'arrived';
  if (departure <= now) return 'departed';
  if (roll < 0.12 && departure - now < 12 * HOUR) return 'delayed';
  if (departure - now <= 45 * 60_000) return 'boarding';
  return 'scheduled';
}

/**
 * About `count` flights for one airline spread over the past and the coming week, on real
 * routes with believable block times, registrations and every status.
 */
export function generateFlights(tenantId: string, count: number, now: Date, seed = 1): NewFlight[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const fleet = Array.from({ length: 40 }, (_, index) => ({
    registration: `EI-D${String.fromCharCode(65 + Math.floor(index / 26))}${String.fromCharCode(65 + (index % 26))}`,
    ...pick(AIRCRAFT_TYPES),
  }));
  const start = Math.floor((now.getTime() - 7 * DAY) / (5 * 60_000)) * 5 * 60_000;
  const span = 14 * DAY;
  const rows: NewFlight[] = [];
  const usedNumbers = new Set<string>();
  while (rows.length < count) {
    const origin = pick(AIRPORTS);
    const destination = pick(AIRPORTS);
    if (origin.code === destination.code) continue;
    const km = distanceKm(origin, destination);
    const aircraft = pick(fleet);
    if (km > aircraft.rangeKm * 0.9) continue;
    // Departures fall on five-minute marks, like a real timetable.
    const departure = start + Math.floor((random() * span) / (5 * 60_000)) * 5 * 60_000;
    const blockMs = Math.round(((km / aircraft.speedKmh) * HOUR + 30 * 60_000) / (5 * 60_000)) * 5 * 60_000;
    const arrival = departure + blockMs;
    let flightNumber: string;
    do flightNumber = `DA${100 + Math.floor(random() * 9800)}`;
    while (usedNumbers.has(`${flightNumber}@${Math.floor(departure / DAY)}`));
    usedNumbers.add(`${flightNumber}@${Math.floor(departure / DAY)}`);
    rows.push({
      tenantId,
      flightNumber,
      origin: origin.code,
      destination: destination.code,
      scheduledDeparture: new Date(departure),
      scheduledArrival: new Date(arrival),
      status: statusAt(departure, arrival, now.getTime(), random()),
      aircraftRegistration: aircraft.registration,
      aircraftType: aircraft.type,
    });
  }
  return rows;
}
