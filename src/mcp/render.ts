import type { Flight, FlightPage } from '../flights/flight-schemas.ts';
import type { Principal } from '../keys/key-schemas.ts';

/**
 * Text renderings of the tools' structured results, for clients that show `content` rather than
 * `structuredContent`. Every field an agent needs to act on (ids, the cursor) is in the text.
 */
export function renderFlight(flight: Flight): string {
  return (
    `${flight.flight_number} ${flight.origin}→${flight.destination}, ${flight.status}; ` +
    `departs ${flight.scheduled_departure}, arrives ${flight.scheduled_arrival} (UTC); ` +
    `aircraft ${flight.aircraft.type} ${flight.aircraft.registration}; id ${flight.id}`
  );
}

export function renderFlightPage(page: FlightPage): string {
  const count = page.data.length;
  const head = count === 0 ? 'No flights match.' : `${count} flight${count === 1 ? '' : 's'}:`;
  const more = page.next_cursor
    ? `More flights: call list_flights again with the same filters and cursor "${page.next_cursor}".`
    : 'This is the last page.';
  return [head, ...page.data.map((flight) => `- ${renderFlight(flight)}`), more].join('\n');
}

export function renderWhoami(whoami: Principal): string {
  const actsAs = whoami.acts_as.type === 'user' ? `user ${whoami.acts_as.email} (${whoami.acts_as.id})` : 'the system';
  return [
    `Tenant: ${whoami.tenant.name} (${whoami.tenant.slug})`,
    `Key: ${whoami.key.name} ${whoami.key.hint} (${whoami.key.id}), ${whoami.key.expires_at ? `expires ${whoami.key.expires_at} 00:00 UTC` : 'never expires'}`,
    `Acts as: ${actsAs}`,
    `Permissions: ${whoami.permissions.length > 0 ? whoami.permissions.join(', ') : 'none'}`,
  ].join('\n');
}
