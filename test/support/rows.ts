import type { ServiceRoot } from '../../src/app/services.ts';
import { FlightRepository } from '../../src/flights/flight-repository.ts';
import { UserRepository } from '../../src/users/user-repository.ts';

/**
 * What storage holds, read past the services: a test checks it, and builds an acting user from a
 * stored row. The services hand out no repository, so every write a test makes goes through them.
 */
export function rowsOf(services: Pick<ServiceRoot, 'database'>) {
  return {
    users: new UserRepository(services.database.db),
    flights: new FlightRepository(services.database.db),
  };
}
