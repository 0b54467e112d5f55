// What every PlatformPauses must do (streams/platformPauses.ts; docs/design/cluster.md#upstream-budgets-cluster-wide), run against the in-process board and the NATS one.
import { bufferTime, filter, firstValueFrom, timeout, type Observable } from 'rxjs';
import type { Test } from 'tap';
import type { PlatformPause, PlatformPauses } from '../../../streams/platformPauses.js';

export interface PausesHarness {
  /** Two nodes sharing the seam (for a node alone, its one board twice). */
  nodes: [PlatformPauses, PlatformPauses];
  /** A node that starts listening now. */
  join(): Promise<PlatformPauses>;
}

/** How long a pause may take to reach another node before the contract counts it lost. */
const reachWithinMs = 2_000;
/** How long a test watches for pauses that must not come. */
const quietMs = 300;

export function heard(pauses: PlatformPauses, wanted: PlatformPause): Promise<PlatformPause> {
  return firstValueFrom(
    pauses.paused.pipe(
      filter(({ upstream, until }) => upstream === wanted.upstream && until === wanted.until),
      timeout(reachWithinMs),
    ),
  );
}

/** Everything `paused` emits within `quietMs` of subscribing. */
export function heardWithin(paused: Observable<PlatformPause>, ms = quietMs): Promise<PlatformPause[]> {
  return firstValueFrom(paused.pipe(bufferTime(ms)));
}

export function platformPausesContract(t: Test, name: string, open: (t: Test) => Promise<PausesHarness>): void {
  t.test(`${name} - a pause announced on one node is heard on every node, with its end`, async (t) => {
    const { nodes } = await open(t);
    const pause = { upstream: 'github', until: Date.now() + 60_000 } as const;
    const hearing = nodes.map((node) => heard(node, pause));
    nodes[0].announce(pause.upstream, pause.until);
    t.same(await Promise.all(hearing), [pause, pause]);
  });

  t.test(`${name} - an end earlier than the one in force, or already past, changes nothing`, async (t) => {
    const { nodes, join } = await open(t);
    const later = { upstream: 'github', until: Date.now() + 60_000 } as const;
    const hearing = heard(nodes[1], later);
    nodes[0].announce('github', later.until);
    await hearing;
    const afterwards = heardWithin(nodes[0].paused);
    nodes[1].announce('github', later.until - 30_000);
    nodes[1].announce('bluesky', Date.now() - 1_000);
    t.same(await afterwards, [later], 'the first node heard only the pause in force, once');
    t.same(await heardWithin((await join()).paused), [later], 'and a node listening now hears the later end');
  });

  t.test(`${name} - a node that starts listening later hears each platform's pause still in force, once`, async (t) => {
    const { nodes, join } = await open(t);
    const github = { upstream: 'github', until: Date.now() + 60_000 } as const;
    const x = { upstream: 'x', until: Date.now() + 90_000 } as const;
    const hearing = [heard(nodes[1], github), heard(nodes[1], x)];
    nodes[0].announce('github', github.until - 10_000);
    nodes[0].announce('github', github.until);
    nodes[1].announce('x', x.until);
    await Promise.all(hearing);
    const joined = await heardWithin((await join()).paused);
    t.same(
      joined.sort((a, b) => a.until - b.until),
      [github, x],
    );
  });

  t.test(`${name} - a federated platform's server is paused on its own, the platform and its other servers not`, async (t) => {
    const { nodes } = await open(t);
    const server = { upstream: 'mastodon/xn--bcher-kva.example.de', until: Date.now() + 60_000 };
    const hearing = heard(nodes[1], server);
    nodes[0].announce(server.upstream, server.until);
    t.same(await hearing, server);
    const inForce = await heardWithin(nodes[1].paused);
    t.same(
      inForce.filter(({ upstream }) => upstream.startsWith('mastodon')),
      [server],
      'nothing else of mastodon is paused',
    );
  });
}
