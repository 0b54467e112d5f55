// Run by test/security/hostGuard.system.test.ts inside a network namespace whose only interface
// is loopback, with /etc/hosts naming social.example and other.example as 127.0.0.1: the host
// guard with its real connector (and for names, the system resolver), where a connection the
// guard lets through to a public address fails with ENETUNREACH instead of leaving the machine.
// Prints one JSON object of outcomes.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { networkInterfaces } from 'node:os';
import { parseAllowList } from '../../src/platforms/hostSafety/allowList.js';
import type { Resolver } from '../../src/platforms/hostSafety/guardedConnector.js';
import { createGuardedHttp, type GuardedHttpOptions } from '../../src/platforms/hostSafety/guardedHttp.js';

const [certFile, keyFile] = process.argv.slice(2) as [string, string];
const cert = readFileSync(certFile, 'utf8');

interface Outcome {
  status?: number;
  body?: string;
  location?: string | string[] | undefined;
  code?: string;
  message?: string;
}

/** Each URL through one guarded client, in turn: its answer or its error. */
async function outcomes(options: GuardedHttpOptions, urls: string[]): Promise<Outcome[]> {
  const http = createGuardedHttp(options);
  const results: Outcome[] = [];
  for (const url of urls) {
    try {
      const answer = await http.get(url, {}, AbortSignal.timeout(5_000));
      results.push({ status: answer.status, body: answer.body, location: answer.headers.location });
    } catch (error) {
      results.push({ code: (error as NodeJS.ErrnoException).code, message: (error as Error).message });
    }
  }
  await http.close();
  return results;
}

/** Answers `answers` in turn, the last one again once they run out. */
function scripted(...answers: Array<readonly string[]>): Resolver {
  let calls = 0;
  return async () => answers[Math.min(++calls, answers.length) - 1]!;
}

const hits: string[] = [];
const server = createServer({ cert, key: readFileSync(keyFile, 'utf8') }, (request, response) => {
  hits.push(request.url!);
  if (request.url === '/moved') response.writeHead(302, { location: 'https://elsewhere.example/landing' }).end();
  else response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
});
// Port 443 of this namespace's own loopback: the guard calls the default port only.
await new Promise<void>((resolve) => server.listen(443, '127.0.0.1', resolve));

const loopbackAllowed = parseAllowList('127.0.0.1/32');
const result = {
  interfaces: Object.keys(networkInterfaces()),
  publicAddresses: await outcomes({ resolve: scripted(['93.184.215.14']) }, ['https://social.example/']).then(async (ipv4) => [
    ...ipv4,
    ...(await outcomes({ resolve: scripted(['2606:4700:4700::1111']) }, ['https://social.example/'])),
  ]),
  rebinding: await outcomes({ resolve: scripted(['93.184.215.14'], ['10.0.0.5']) }, [
    'https://social.example/a',
    'https://social.example/b',
  ]),
  loopbackRefused: await outcomes({ trustedCa: cert }, ['https://social.example/']),
  loopbackAllowed: await outcomes({ allowList: loopbackAllowed, trustedCa: cert }, [
    'https://social.example/',
    'https://social.example/moved',
    'https://other.example/',
    'http://social.example/',
  ]),
  systemCas: await outcomes({ allowList: loopbackAllowed }, ['https://social.example/']),
  hits,
};
server.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
