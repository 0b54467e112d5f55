// The connection a guarded call makes (docs/host-safety.md#the-address-connected-to): the host is
// resolved once, every address it resolves to is checked, and the socket is opened to a checked
// address, never to the name. A resolver that answers a public address to the check and a private
// one to the connection (DNS rebinding) has no second answer to give.
import { lookup } from 'node:dns/promises';
import type { Connector } from '../http.js';
import { refusedRangeOf } from './addressCheck.js';
import type { HostAllowList } from './allowList.js';
import { addressRefused, HostRefused } from './hostRefused.js';
import { checkedHostName } from './hostName.js';

/** A host name's addresses: the system's resolver in production, the test's own in tests. */
export type Resolver = (host: string) => Promise<readonly string[]>;

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), every address, in its order. */
export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** The addresses of `host`, each one checked; HostRefused when any one is refused. */
async function checkedAddresses(host: string, resolve: Resolver, allowList: HostAllowList): Promise<readonly string[]> {
  checkedHostName(host);
  const addresses = await resolve(host);
  if (addresses.length === 0) throw new HostRefused(`${host} resolves to no address`);
  // One refused address refuses the name: a host that mixes public and private answers is
  // misconfigured or playing, and which answer a later connection would get is not ours to pick.
  for (const address of addresses) {
    if (allowList.allows(host, address)) continue;
    const range = refusedRangeOf(address);
    if (range) throw addressRefused(address, range);
  }
  return addresses;
}

export interface GuardedConnectorOptions {
  resolve: Resolver;
  allowList: HostAllowList;
  /** Opens the TLS connection to one address; its certificate is checked against the host name. */
  dial: Connector;
}

/** An undici connector that dials checked addresses only, in the resolver's order until one answers. */
export function guardedConnector({ resolve, allowList, dial }: GuardedConnectorOptions): Connector {
  return (options, callback) => {
    if (options.protocol !== 'https:') return callback(new HostRefused(`${options.protocol}// is not https`), null);
    const host = options.hostname;
    checkedAddresses(host, resolve, allowList).then(
      (addresses) => {
        const dialFrom = (index: number): void => {
          try {
            // The name goes to TLS (SNI and the certificate check), the checked address to the socket.
            dial({ ...options, hostname: addresses[index]!, servername: host }, (...result) => {
              if (result[0] !== null && index + 1 < addresses.length) dialFrom(index + 1);
              else callback(...result);
            });
          } catch (error) {
            // A dial that throws (bad TLS options) must not become an unhandled rejection here.
            callback(error as Error, null);
          }
        };
        dialFrom(0);
      },
      (error: Error) => callback(error, null),
    );
  };
}
