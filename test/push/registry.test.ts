// The subscription registry and stream tickets, directly (docs/push.md).
import t from 'tap';
import { AccountTable } from '../../src/access/accountTable.js';
import { identifierSyntax } from '../../src/api/schema.js';
import type { RequestedResource } from '../../src/api/validation.js';
import { ConnectionCounts, createConnectionCountsBuffer } from '../../src/push/connectionCounts.js';
import { SubscriptionRegistry, topicOf } from '../../src/push/subscriptionRegistry.js';
import { createTicketState, StreamTickets } from '../../src/push/tickets.js';

const resource = (identifier: string): RequestedResource => identifierSyntax('github', 'account')!.requested(identifier)!;
const entryEnd = (status: string) => `,"status":"${status}"}`;

function recordingRegistry() {
  const published: Array<[string, string]> = [];
  return { published, registry: new SubscriptionRegistry((topic, message) => published.push([topic, message])) };
}

t.test('registry - a change is rendered once per spelling followed, whatever the number of followers', async (t) => {
  const { published, registry } = recordingRegistry();
  const lower = resource('torvalds');
  const upper = resource('Torvalds');
  registry.follow(lower, entryEnd('pending'));
  registry.follow(lower, entryEnd('pending'));
  registry.follow(upper, entryEnd('pending'));
  registry.changed('github/account/torvalds', { entryEnd: entryEnd('available'), refreshAfter: 1 });
  t.same(published, [
    [topicOf(lower), `{"type":"update","data":[{"platform":"github","type":"account","identifier":"torvalds","status":"available"}]}`],
    [topicOf(upper), `{"type":"update","data":[{"platform":"github","type":"account","identifier":"Torvalds","status":"available"}]}`],
  ]);
  t.equal(topicOf(lower), 'github/account/torvalds torvalds');
});

t.test('registry - an unchanged view and a resource nobody follows publish nothing', async (t) => {
  const { published, registry } = recordingRegistry();
  registry.follow(resource('octocat'), entryEnd('pending'));
  registry.changed('github/account/octocat', { entryEnd: entryEnd('pending'), refreshAfter: 0 });
  registry.changed('github/account/nobody', { entryEnd: entryEnd('available'), refreshAfter: 0 });
  t.same(published, []);
  registry.changed('github/account/octocat', { entryEnd: entryEnd('available'), refreshAfter: 0 });
  registry.changed('github/account/octocat', { entryEnd: entryEnd('available'), refreshAfter: 5 });
  t.equal(published.length, 1, 'a commit that changes only the refresh time is no change to the entry');
});

t.test('registry - once its last follower leaves, a resource is forgotten and its changes cost a lookup', async (t) => {
  const { published, registry } = recordingRegistry();
  const octocat = resource('octocat');
  registry.follow(octocat, entryEnd('pending'));
  registry.follow(octocat, entryEnd('pending'));
  t.equal(registry.size, 1);
  registry.unfollow(octocat);
  registry.changed(octocat.key, { entryEnd: entryEnd('available'), refreshAfter: 0 });
  t.equal(published.length, 1, 'one follower left');
  registry.unfollow(octocat);
  t.equal(registry.size, 0);
  registry.unfollow(octocat);
  registry.changed(octocat.key, { entryEnd: entryEnd('stale'), refreshAfter: 0 });
  t.equal(published.length, 1);
});

t.test('tickets - spent once, before expiry, only with this server key; reading spends nothing', async (t) => {
  const state = createTicketState(8);
  const tickets = new StreamTickets(state, 1_000);
  const digest = 'ab'.repeat(32);
  const { ticket, expiresAt } = tickets.issue(digest, 10_000);
  t.equal(expiresAt, 11_000);
  const otherThread = new StreamTickets(state, 1_000);
  const read = otherThread.read(ticket, 10_500);
  t.equal(read?.digest, digest, 'any thread sharing the state reads it');
  t.equal(tickets.read(ticket, 10_500)?.digest, digest, 'reading twice spends nothing');
  t.equal(otherThread.spend(read!.serial), true);
  t.equal(tickets.spend(read!.serial), false, 'spent once');
  t.equal(tickets.read(ticket, 10_600), undefined, 'a spent ticket is not read');
  const late = tickets.issue(digest, 10_000);
  t.equal(tickets.read(late.ticket, 11_000), undefined, 'expired');
  const foreign = new StreamTickets(createTicketState(8), 1_000).issue(digest, 10_000);
  t.equal(tickets.read(foreign.ticket, 10_001), undefined, "another server's key");
  t.equal(tickets.read('not a ticket', 10_001), undefined);
});

t.test('tickets - a ticket whose slot a newer ticket took is refused', async (t) => {
  const tickets = new StreamTickets(createTicketState(2), 60_000);
  const digest = 'cd'.repeat(32);
  const first = tickets.issue(digest, 0);
  tickets.issue(digest, 0);
  const third = tickets.issue(digest, 0);
  t.equal(tickets.read(first.ticket, 1), undefined);
  t.equal(tickets.read(third.ticket, 1)?.digest, digest);
});

t.test('connection counts - shared by every holder of the buffer, per account', async (t) => {
  const table = AccountTable.create(16);
  const buffer = createConnectionCountsBuffer(table);
  const here = new ConnectionCounts(table, buffer, 2);
  const there = new ConnectionCounts(new AccountTable(table.buffer), buffer, 2);
  const first = here.open('alice');
  t.not(first, undefined);
  t.equal(there.open('alice'), first);
  t.equal(here.open('alice'), undefined, 'the third is over the limit of 2');
  t.not(there.open('bob'), undefined, 'another account counts apart');
  there.close(first!);
  t.equal(here.open('alice'), first);
});
