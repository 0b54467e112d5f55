// The host guard is built for the real platforms only (docs/host-safety.md#which-calls): the
// operator's allow-list is named in the log at start under `--upstream real`, and against an
// emulator, the one URL the operator chose, there is no guard to tell of.
import pino from 'pino';
import t from 'tap';
import { openUpstreams } from '../../src/node/upstreams.js';
import { parseAllowList } from '../../src/platforms/hostSafety/allowList.js';

async function startLines(upstream: string): Promise<Array<{ level: number; msg: string; allowed?: string[] }>> {
  const lines: Array<{ level: number; msg: string; allowed?: string[] }> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const allowPrivateHosts = parseAllowList('social.home.example, 10.0.0.0/8');
  const upstreams = await openUpstreams({ upstream, env: {}, allowPrivateHosts, queueDepth: () => null, log });
  await upstreams.stop();
  return lines.filter((line) => line.msg.startsWith('host guard'));
}

t.test('host guard wiring - the allow-list is named at start under --upstream real', async (t) => {
  const lines = await startLines('real');
  t.same(
    lines.map(({ level, msg, allowed }) => ({ level, msg, allowed })),
    [{ level: 40, msg: 'host guard lets through: social.home.example, 10.0.0.0/8', allowed: ['social.home.example', '10.0.0.0/8'] }],
  );
});

t.test('host guard wiring - against an emulator URL no guard is built', async (t) => {
  t.same(await startLines('http://127.0.0.1:9'), []);
});
