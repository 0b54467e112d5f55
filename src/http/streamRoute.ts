// GET /api/v1/resources/stream, upgraded to a WebSocket, and POST .../stream/tickets
// (docs/push.md#opening): the upgrade authenticated like a search, by header or ticket.
import type { TemplatedApp, us_socket_context_t } from 'uWebSockets.js';
import type { Admissions } from '../access/admission.js';
import type { Authentication, Authenticator } from '../access/authenticator.js';
import { limits } from '../config.js';
import { apiErrors } from './errors.js';
import { type Exchange, writeReply } from './reply.js';
import type { HttpRequest, HttpResponse } from './uws.js';
import type { Logger } from '../log.js';
import type { ResourceDemand } from '../resources/demand.js';
import type { ViewSource } from '../resources/view.js';
import { StreamConnection, type StreamSocketData } from '../push/connection.js';
import type { ConnectionCounts } from '../push/connectionCounts.js';
import { closeCodes } from '../push/messages.js';
import { streamMessageHandler } from '../push/streamMessages.js';
import { SubscriptionRegistry } from '../push/subscriptionRegistry.js';
import type { StreamTickets } from '../push/tickets.js';
import type { ViewChanges } from '../seams/viewChanges/viewChanges.js';

export const streamPath = '/api/v1/resources/stream';
export const ticketsPath = '/api/v1/resources/stream/tickets';
/** The subprotocol a client offers (and the server selects) beside a ticket. */
export const streamProtocol = 'datapoints.v1';
const ticketPrefix = 'ticket.';

/** What the stream needs beyond what every route has: chosen by the wiring, per thread. */
export interface StreamWiring {
  changes: ViewChanges;
  tickets: StreamTickets;
  connections: ConnectionCounts;
  /** `limits.push.idleTimeoutSeconds` when absent (uWebSockets.js rounds it to 4 s steps, at least 8). */
  idleTimeoutSeconds?: number | undefined;
}

export interface StreamRouteDeps extends StreamWiring {
  authenticator: Authenticator;
  admissions: Admissions;
  views: ViewSource;
  demand: ResourceDemand;
  log: Logger;
  now(): number;
  begin(req: HttpRequest): Exchange;
  /** True once the server stops: upgrades and tickets are answered 503. */
  stopping(): boolean;
}

export interface StreamRoutes {
  /** Closes every connection with 1001 and stops listening for changes (docs/push.md#close-codes). */
  goingAway(): void;
}

/**
 * The upgrade takes the Authorization header or a ticket offered as a subprotocol; a refusal is
 * the HTTP answer a search would get (docs/push.md#authentication). Open connections are checked
 * every `limits.push.checkMs` for a revoked token and for output their client leaves unread.
 */
export function registerStreamRoutes(app: TemplatedApp, deps: StreamRouteDeps): StreamRoutes {
  const registry = new SubscriptionRegistry((topic, message) => void app.publish(topic, message, false));
  const stopListening = deps.changes.listen((key, view) => registry.changed(key, view));
  const messages = streamMessageHandler({ ...deps, registry });
  const open = new Set<StreamConnection>();
  const decoder = new TextDecoder();

  // One look per token, however many connections it holds; the authenticator's cache makes it cheap.
  const check = () => {
    const now = deps.now();
    const standing = new Map<string, Standing>();
    for (const connection of open) {
      let found = standing.get(connection.digest);
      if (found === undefined) {
        found = standingOf(deps.authenticator.authenticateDigest(connection.digest, now));
        standing.set(connection.digest, found);
      }
      if (found === 'valid') connection.checkBacklog();
      else connection.end(closeCodes[found]);
    }
  };
  const checking = setInterval(check, limits.push.checkMs);
  checking.unref();

  app.post(ticketsPath, (res, req) => {
    const exchange = deps.begin(req);
    if (deps.stopping()) {
      writeReply(res, exchange, apiErrors.unavailable);
      return;
    }
    const now = deps.now();
    const authorization = req.getHeader('authorization');
    const authentication = deps.authenticator.authenticate(authorization, now);
    if (deps.authenticator.mayCatchUp(authentication)) {
      // docs/design/cluster.md#a-token-new-to-a-node: the cluster's word first.
      let gone = false;
      res.onAborted(() => (gone = true));
      void deps.authenticator.authenticateCaughtUp(authorization, now).then((settled) => {
        if (!gone) issueTicket(res, exchange, settled, now);
      });
      return;
    }
    issueTicket(res, exchange, authentication, now);
  });
  const issueTicket = (res: HttpResponse, exchange: Exchange, authentication: Authentication, now: number) => {
    if (authentication.kind !== 'authenticated') {
      refuse(res, exchange, authentication);
      return;
    }
    exchange.account = authentication.account.name;
    const { ticket, expiresAt } = deps.tickets.issue(authentication.token.digest, now);
    const body = JSON.stringify({ ticket, expires_at: new Date(expiresAt).toISOString() });
    writeReply(res, exchange, { status: '201 Created', body, headers: [['Cache-Control', 'no-store']] });
  };
  app.any(ticketsPath, (res, req) => {
    const exchange = deps.begin(req);
    writeReply(res, exchange, apiErrors.methodNotAllowed(exchange.method, 'POST'));
  });

  app.ws<StreamSocketData>(streamPath, {
    maxPayloadLength: 2 * limits.push.maxMessageBytes,
    maxBackpressure: limits.push.hardBackpressureBytes,
    closeOnBackpressureLimit: 1,
    idleTimeout: deps.idleTimeoutSeconds ?? limits.push.idleTimeoutSeconds,
    sendPingsAutomatically: true,
    upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
      const exchange = deps.begin(req);
      // `req` is only valid until this function returns: read everything needed now.
      const authorization = req.getHeader('authorization');
      const offered = req
        .getHeader('sec-websocket-protocol')
        .split(',')
        .map((protocol) => protocol.trim());
      const key = req.getHeader('sec-websocket-key');
      const extensions = req.getHeader('sec-websocket-extensions');
      if (deps.stopping()) {
        writeReply(res, exchange, apiErrors.unavailable);
        return;
      }
      const now = deps.now();
      let authentication: Authentication = deps.authenticator.authenticate(authorization, now);
      const offeredTicket = offered.find((protocol) => protocol.startsWith(ticketPrefix));
      let ticket: { digest: string; serial: number } | undefined;
      if (authentication.kind === 'missing' && offeredTicket !== undefined) {
        ticket = deps.tickets.read(offeredTicket.slice(ticketPrefix.length), now);
        if (ticket === undefined) {
          writeReply(res, exchange, apiErrors.invalidTicket);
          return;
        }
        authentication = deps.authenticator.authenticateDigest(ticket.digest, now);
      }
      const upgrade = { res, exchange, ticket, key, protocol: offered.includes(streamProtocol) ? streamProtocol : '', extensions, context };
      if (ticket === undefined && deps.authenticator.mayCatchUp(authentication)) {
        // docs/design/cluster.md#a-token-new-to-a-node: the cluster's word first.
        let gone = false;
        res.onAborted(() => (gone = true));
        void deps.authenticator.authenticateCaughtUp(authorization, now).then((settled) => {
          if (!gone) res.cork(() => upgradeOrRefuse(upgrade, settled));
        });
        return;
      }
      upgradeOrRefuse(upgrade, authentication);
    },
    open: (ws) => {
      const { connection } = ws.getUserData();
      connection.socket = ws;
      open.add(connection);
    },
    message: (ws, data, isBinary) => {
      const { connection } = ws.getUserData();
      if (isBinary) {
        connection.end(closeCodes.binary);
        return;
      }
      if (data.byteLength > limits.push.maxMessageBytes) {
        connection.end(closeCodes.tooBig);
        return;
      }
      messages.receive(connection, decoder.decode(data));
    },
    close: (ws) => {
      const { connection } = ws.getUserData();
      connection.socket = undefined;
      open.delete(connection);
      messages.closed(connection);
      deps.connections.close(connection.countSlot);
    },
  });
  /** The upgrade's checks after its token's: a suspended account, the connection count, the ticket spent. */
  const upgradeOrRefuse = (upgrade: PendingUpgrade, authentication: Authentication) => {
    const { res, exchange, ticket } = upgrade;
    if (authentication.kind !== 'authenticated') {
      refuse(res, exchange, authentication);
      return;
    }
    const { account, token } = authentication;
    exchange.account = account.name;
    // The search's order (docs/api.md#a-53): a suspended account is refused before anything counts.
    if (account.suspended !== undefined) {
      writeReply(res, exchange, apiErrors.accountSuspended);
      return;
    }
    const countSlot = deps.connections.open(account.name);
    if (countSlot === undefined) {
      writeReply(res, exchange, apiErrors.tooManyStreams(limits.push.maxConnectionsPerAccount));
      return;
    }
    // Spent last, so a refused upgrade leaves the ticket usable (docs/push.md#tickets).
    if (ticket !== undefined && !deps.tickets.spend(ticket.serial)) {
      deps.connections.close(countSlot);
      writeReply(res, exchange, apiErrors.invalidTicket);
      return;
    }
    exchange.logAccess(exchange, '101 Switching Protocols');
    const data: StreamSocketData = { connection: new StreamConnection(account, token.digest, countSlot) };
    res.upgrade(data, upgrade.key, upgrade.protocol, upgrade.extensions, upgrade.context);
  };

  // A request that is no WebSocket upgrade: a GET is told to upgrade, other methods are not allowed.
  app.any(streamPath, (res, req) => {
    const exchange = deps.begin(req);
    writeReply(res, exchange, exchange.method === 'GET' ? apiErrors.upgradeRequired : apiErrors.methodNotAllowed(exchange.method, 'GET'));
  });

  return {
    goingAway() {
      clearInterval(checking);
      stopListening();
      for (const connection of open) connection.end(closeCodes.goingAway);
    },
  };
}

/** What an open connection's token is now worth: a suspended account's connections close too (docs/push.md#close-codes). */
type Standing = 'valid' | 'revoked' | 'suspended';

function standingOf(authentication: Authentication): Standing {
  if (authentication.kind !== 'authenticated') return 'revoked';
  return authentication.account.suspended === undefined ? 'valid' : 'suspended';
}

/** What an upgrade carries past its token's check (`req` is gone by then). */
interface PendingUpgrade {
  res: HttpResponse;
  exchange: Exchange;
  ticket: { digest: string; serial: number } | undefined;
  key: string;
  protocol: string;
  extensions: string;
  context: us_socket_context_t;
}

function refuse(res: HttpResponse, exchange: Exchange, authentication: Exclude<Authentication, { kind: 'authenticated' }>): void {
  writeReply(res, exchange, authentication.kind === 'missing' ? apiErrors.missingToken : apiErrors.invalidToken);
}
