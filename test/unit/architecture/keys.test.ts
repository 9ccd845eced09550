import { beforeAll, describe, expect, it } from 'vitest';
import { folderOf, importGraphOfSrc, roomOf } from '../../support/import-graph.ts';

/**
 * The rooms of src/keys, one per concern, and the rooms each may import besides its own. The root
 * (`keys`) holds what every room shares: the key as stored (rows, repository), as the check
 * caches it (facts) and as the API shows it (view, schemas, expiry); it imports no room. The check
 * runs on every request, so it stays clear of the writes: no lifecycle, no events, no sweeps.
 */
const KEY_ROOMS: Record<string, readonly string[]> = {
  keys: [],
  'keys/format': [],
  'keys/policy': [],
  'keys/events': ['keys'],
  'keys/check': ['keys', 'keys/format'],
  'keys/lifecycle': ['keys', 'keys/format', 'keys/events', 'keys/policy'],
  'keys/sweeps': ['keys', 'keys/events', 'keys/lifecycle'],
};

/** src-relative file → src-relative files it imports. */
let graph: Record<string, string[]>;
const importsOf = (folders: readonly string[]) =>
  Object.entries(graph).filter(([file]) => folders.includes(folderOf(file)));

describe('architecture of src/keys', () => {
  beforeAll(async () => {
    graph = await importGraphOfSrc();
  }, 60_000);

  it('places every file of src/keys in a declared room', () => {
    const rooms = Object.keys(KEY_ROOMS);
    const files = Object.keys(graph).filter((file) => folderOf(file) === 'keys');
    expect(files.filter((file) => !rooms.includes(roomOf(file)))).toEqual([]);
    expect(rooms.filter((room) => !files.some((file) => roomOf(file) === room))).toEqual([]);
  });

  it('has each room of src/keys import only the rooms it declares', () => {
    const offenders = importsOf(['keys']).flatMap(([file, deps]) =>
      deps
        .filter((dep) => folderOf(dep) === 'keys' && roomOf(dep) !== roomOf(file))
        .filter((dep) => !(KEY_ROOMS[roomOf(file)] ?? []).includes(roomOf(dep)))
        .map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps the key check apart from the key lifecycle: keys/check imports nothing of keys/lifecycle', () => {
    const offenders = importsOf(['keys']).flatMap(([file, deps]) =>
      roomOf(file) === 'keys/check' ? deps.filter((dep) => roomOf(dep) === 'keys/lifecycle') : [],
    );
    expect(offenders).toEqual([]);
  });
});
