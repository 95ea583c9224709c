// The change-feed relay (modules/changes/relay.ts): each number reaches each socket once, in
// order, whatever happened to its publisher. A publisher killed between its numbering commit and
// its publish is played by a Sequencer whose publish does nothing; a late or repeated batch by
// calling the real publish again.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordChanges, type Change } from '../src/modules/changes/change-log.js';
import { publish } from '../src/modules/changes/publish.js';
import { RELAY_POLL_MS, relayChannel, relaySettled } from '../src/modules/changes/relay.js';
import { Sequencer } from '../src/modules/changes/sequencer.js';
import { startTestServer, type TestServer } from './harness.js';
import { addAgent, collect, socketOf, tenant, until, type Tenant } from './ticketing/fixtures.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  a = await tenant(server);
  b = await tenant(server);
});
afterAll(() => server?.close());

/** A contact change of company A, committed and numbered, never published (a killed worker). */
async function numberedUnpublished(names: string[]): Promise<(Change & { seq: number })[]> {
  const [contact] = (await server.app.ds.query(
    `INSERT INTO contacts (name, number, "companyId") VALUES ('Relay', $1, $2) RETURNING id`,
    [`55119${Date.now() % 100_000_000}`, a.companyId],
  )) as { id: number }[];
  const changes = names.map((name): Change => {
    // The payload's contact is a loose entity: its id is typed, the rest travels as given.
    const row = { id: contact!.id, name };
    return {
      entity: 'contact',
      entityId: contact!.id,
      action: 'update',
      payload: { action: 'update', contact: row },
    };
  });
  return numberedSilently(changes);
}

/** Changes of company A, committed and numbered by a sequencer that publishes nothing. */
async function numberedSilently(changes: Change[]): Promise<(Change & { seq: number })[]> {
  const pending = await server.app.ds.transaction((tx) => recordChanges(tx, a.companyId, changes));
  const numbered: (Change & { seq: number })[] = [];
  const silent = new Sequencer(server.app, (_companyId, moved) => void numbered.push(...moved));
  await silent.sequence(a.companyId, pending);
  expect(numbered).toHaveLength(changes.length);
  return numbered;
}

const namesOf = (events: { contact?: { name?: string } }[]) => events.map((e) => e.contact?.name);

it('numbers whose publisher died reach the socket from the log, once, within two polls', async () => {
  const sA = await socketOf(server, a.admin.token);
  const sB = await socketOf(server, b.admin.token);
  const seen = collect(sA, `company-${a.companyId}-contact`);
  const leaked: string[] = [];
  // B's socket gets its own connection's events; anything of A would be a leak.
  sB.onAny((name: string) => name.startsWith(`company-${a.companyId}-`) && leaked.push(name));
  // Following starts at the counter read when the company's first socket connects.
  await relaySettled(server.app);

  const started = Date.now();
  const [lost] = await numberedUnpublished(['lost-1']);
  await until(() => namesOf(seen).includes('lost-1') || undefined, 4 * RELAY_POLL_MS + 2_000);
  const tookMs = Date.now() - started;
  expect(seen.find((e) => e.contact.name === 'lost-1').seq).toBe(lost!.seq);

  // The dead publisher's batch arrives after all (a late duplicate), then a new change: the
  // socket gets the new one, and the old one still only once.
  publish(server.app, a.companyId, [lost!]);
  const [next] = await numberedUnpublished(['next']);
  publish(server.app, a.companyId, [next!]);
  await until(() => namesOf(seen).includes('next') || undefined);
  expect(namesOf(seen)).toEqual(['lost-1', 'next']);
  expect(leaked).toEqual([]);
  process.stdout.write(`change relay: an unpublished number reached the socket in ${tookMs} ms\n`);
  sA.close();
  sB.close();
});

it('a batch beyond a hole brings the missing numbers first, in order', async () => {
  const sA = await socketOf(server, a.admin.token);
  const seen = collect(sA, `company-${a.companyId}-contact`);
  await relaySettled(server.app);
  const numbered = await numberedUnpublished(['hole-1', 'hole-2', 'after-hole']);
  // Only the last is published: the two before it went out with a publisher that died.
  publish(server.app, a.companyId, [numbered[2]!]);
  await until(() => (seen.length >= 3 ? true : undefined));
  expect(namesOf(seen)).toEqual(['hole-1', 'hole-2', 'after-hole']);
  expect(seen.map((e) => e.seq)).toEqual(numbered.map((c) => c.seq));
  sA.close();
});

/** A new agent of A (a chat's only member) and A's admin, each with a socket the relay follows. */
async function memberAndAdmin() {
  const member = await addAgent(server, a.admin);
  const sMember = await socketOf(server, member.token);
  const sAdmin = await socketOf(server, a.admin.token);
  const memberChats = collect(sMember, `company-${a.companyId}-chat`);
  const adminChats = collect(sAdmin, `company-${a.companyId}-chat`);
  const adminContacts = collect(sAdmin, `company-${a.companyId}-contact`);
  await relaySettled(server.app);
  return { member, sMember, sAdmin, memberChats, adminChats, adminContacts };
}

it("a members' change read from the log reaches the members' rooms only", async () => {
  const { member, sMember, sAdmin, memberChats, adminChats, adminContacts } =
    await memberAndAdmin();
  // An internal chat's change (no such chat needs to exist for the relay), its publisher dead.
  const gone = { action: 'delete' as const, chatId: 2_000_000, id: 2_000_000 };
  const [lost] = await numberedSilently([
    { entity: 'chat', entityId: gone.id, action: 'delete', payload: gone, userIds: [member.id] },
  ]);
  const [next] = await numberedUnpublished(['after-chat']);
  publish(server.app, a.companyId, [next!]);
  // The relay emits in number order: once the admin has the later contact event, a chat event
  // meant for the admin would have arrived before it.
  await until(() => namesOf(adminContacts).includes('after-chat') || undefined);
  await until(() => (memberChats.length ? true : undefined));
  expect(memberChats).toEqual([{ ...gone, seq: lost!.seq }]);
  expect(adminChats).toEqual([]);
  sMember.close();
  sAdmin.close();
});

it("a members' change relayed by another process (Redis) keeps its members", async () => {
  const { member, sMember, sAdmin, memberChats, adminChats, adminContacts } =
    await memberAndAdmin();
  const gone = { action: 'delete' as const, chatId: 2_000_001, id: 2_000_001 };
  const [numbered] = await numberedSilently([
    { entity: 'chat', entityId: gone.id, action: 'delete', payload: gone, userIds: [member.id] },
  ]);
  // As another api process publishes its move: the message parsed from the channel.
  await server.app.redis.publish(
    relayChannel(server.app.prefix),
    `another-process\n${JSON.stringify({ companyId: a.companyId, changes: [numbered] })}`,
  );
  await until(() => (memberChats.length ? true : undefined));
  expect(memberChats).toEqual([{ ...gone, seq: numbered!.seq }]);
  const [next] = await numberedUnpublished(['after-redis']);
  publish(server.app, a.companyId, [next!]);
  await until(() => namesOf(adminContacts).includes('after-redis') || undefined);
  expect(adminChats).toEqual([]);
  sMember.close();
  sAdmin.close();
});
