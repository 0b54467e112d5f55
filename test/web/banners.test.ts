// Success banners come from fixed messages only (docs/dashboard.md#banners): a page's query names
// a message by its key and the thing it is about, which must exist; any other text shows nothing.
import t from 'tap';
import { startTestService } from '../helpers/service.js';
import { signedInHere, WebClient } from './webClient.js';

const banner = (page: string) => /<p class="success" role="status">([\s\S]*?)<\/p>/.exec(page)?.[1];
const phishing = 'Your account is locked. Call +1 555 0100 to unlock it';

t.test('banners - the accounts and tokens pages say only their own messages, of things that exist', async (t) => {
  const { service, url, dataDir, tokenFor } = await startTestService(t);
  await tokenFor('alice');
  await service.accounts.updateAccount('alice', { operator: true });
  const client = new WebClient(url);
  await signedInHere(client, dataDir, 'alice', 'a long enough password');

  const created = await client.submit('/console/accounts', '/console/accounts', { name: 'bob', plan: 'free' });
  t.equal(created.headers.get('location'), '/console/accounts?done=created&account=bob');
  t.equal(banner((await client.get(created.headers.get('location')!)).text), 'Account bob created.');
  const suspended = await client.submit('/console/accounts', '/console/accounts/suspend', { name: 'bob' });
  t.equal(banner((await client.get(suspended.headers.get('location')!)).text), 'Account bob suspended: its searches are refused.');

  for (const query of [
    `done=${encodeURIComponent(phishing)}`,
    `done=${encodeURIComponent(phishing)}&account=bob`,
    'done=created&account=nobody',
    `done=created&account=${encodeURIComponent(phishing)}`,
    'done=toString&account=bob',
    'done=__proto__&account=bob',
    'account=bob',
  ]) {
    const page = await client.get(`/console/accounts?${query}`);
    t.equal(page.status, 200, query);
    t.equal(banner(page.text), undefined, `no banner for ${query}`);
    t.notOk(page.text.includes('555 0100'), query);
  }

  const made = await client.submit('/dashboard/tokens', '/dashboard/tokens', { note: 'to revoke' });
  t.equal(made.status, 303);
  const token = service.accounts.tokensOf('alice').find((each) => each.note === 'to revoke')!;
  const live = await client.get(`/dashboard/tokens?revoked=${token.id}`);
  t.equal(banner(live.text), undefined, 'a token that is not revoked is not said to be');
  const revoked = await client.submit(`/dashboard/tokens/revoke?id=${token.id}`, '/dashboard/tokens/revoke', { id: token.id });
  t.equal(revoked.headers.get('location'), `/dashboard/tokens?revoked=${token.id}`);
  t.match(banner((await client.get(revoked.headers.get('location')!)).text), /^Token <code>.+<\/code> is revoked/);
  await tokenFor('bob');
  const others = service.accounts.tokensOf('bob')[0]!;
  await service.accounts.revokeToken(others.id, new Date().toISOString());
  for (const query of [`revoked=${encodeURIComponent(phishing)}`, `revoked=${others.id}`]) {
    const page = await client.get(`/dashboard/tokens?${query}`);
    t.equal(banner(page.text), undefined, `no banner for ${query}`);
  }
});
