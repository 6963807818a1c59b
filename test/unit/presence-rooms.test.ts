/**
 * The presence rooms of one instance with the users other instances told it of: everyone in a room
 * sees everyone there whichever instance serves them; this instance's changes are announced to the
 * others; what an instance said is forgotten when it stops or goes silent.
 */
import { expect, test } from 'bun:test';
import { presenceRooms, type PresenceUser } from '../../src/realtime/presence';

const user = (id: string): PresenceUser => ({ id, email: `${id}@example.com`, color: '#0b5cad' });

test('local and remote users share a room; announcements carry this instance\'s users; silent or stopped instances are forgotten', () => {
  const announced: [string, string, string[]][] = [];
  const rooms = presenceRooms((p, t, users) => announced.push([p, t, users.map((u) => u.id)]));
  const told: unknown[] = [];
  const owner = { user: user('owner'), send: (m: unknown) => told.push(m) };
  const others = () => (told.at(-1) as { users: PresenceUser[] }).users.map((u) => u.id);

  rooms.join('p', 'Customer', owner);
  expect(announced.at(-1)).toEqual(['p', 'Customer', ['owner']]);
  expect(others()).toEqual([]);

  rooms.remote('B', 'p', 'Customer', [user('ada')], 1_000);
  rooms.remote('C', 'p', 'Customer', [user('bob'), user('ada')], 1_000);
  expect(others()).toEqual(['ada', 'bob']);
  expect(rooms.usersOf('p', 'Customer').map((u) => u.id)).toEqual(['owner', 'ada', 'bob']);
  // The same list again tells nobody anything new.
  const count = told.length;
  rooms.remote('B', 'p', 'Customer', [user('ada')], 5_000);
  expect(told.length).toBe(count);

  // C stopped: bob goes (ada is still on B). B goes silent: ada goes when older ones are forgotten.
  rooms.forget({ instance: 'C' });
  expect(others()).toEqual(['ada']);
  rooms.forget({ before: 2_000 });
  expect(others()).toEqual(['ada']);
  rooms.forget({ before: 6_000 });
  expect(others()).toEqual([]);

  // A remote user already there greets a socket that joins later; leaving announces an empty room.
  rooms.remote('B', 'p', 'Album', [user('ada')]);
  const later = { user: user('eve'), send: (m: unknown) => told.push(m) };
  rooms.join('p', 'Album', later);
  expect(others()).toEqual(['ada']);
  rooms.leave('p', 'Album', later);
  expect(announced.at(-1)).toEqual(['p', 'Album', []]);
  expect(rooms.local().map((r) => [r.table, r.users.map((u) => u.id)])).toEqual([['Customer', ['owner']]]);
});
