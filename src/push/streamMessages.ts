// What the server does with each client message (docs/push.md#messages): a subscribe is checked and
// counted like a search, an unsubscribe is free (docs/push.md#counting).
import type { Admissions, Decision } from '../access/admission.js';
import { limitHeaderPairs } from '../access/limitHeaders.js';
import { renderSearchResponse } from '../api/searchResponse.js';
import { validateSearch } from '../api/validation.js';
import { limits } from '../config.js';
import { admissionMessages } from '../access/admissionMessages.js';
import type { Logger } from '../log.js';
import type { ResourceDemand } from '../resources/demand.js';
import { pendingView, type ViewSource } from '../resources/view.js';
import type { StreamConnection } from './connection.js';
import { closeCodes, errorMessage, messageErrors, parseClientMessage, subscribedMessage, unsubscribedMessage } from './messages.js';
import { type SubscriptionRegistry, topicOf } from './subscriptionRegistry.js';

export interface StreamMessageDeps {
  admissions: Admissions;
  views: ViewSource;
  demand: ResourceDemand;
  registry: SubscriptionRegistry;
  log: Logger;
  now(): number;
}

/**
 * A subscribe is checked for quota, then rate, then its resources, then answered; it counts once
 * unless refused at admission. A connection's messages are handled in the order sent: while a
 * subscribe waits for its account's next quota reservation, later messages wait behind it.
 */
export function streamMessageHandler(deps: StreamMessageDeps) {
  /** A bug answers this message with a 500 error and leaves the connection and the server running. */
  const guarded = (connection: StreamConnection, work: () => void): void => {
    try {
      work();
    } catch (error) {
      deps.log.error({ err: error, account: connection.account.name }, 'stream message failed');
      connection.send(errorMessage(500, 'Internal server error'));
    }
  };

  const handle = (connection: StreamConnection, text: string): void => {
    const parsed = parseClientMessage(text);
    if (!parsed.ok) {
      connection.send(errorMessage(422, [parsed.error]));
      return;
    }
    const { message } = parsed;
    if (message.type === 'unsubscribe') {
      unsubscribe(connection, message);
      return;
    }
    const admission = deps.admissions.admit(connection.account, deps.now(), connection);
    if (admission.kind !== 'pending') {
      subscribe(connection, message, admission);
      return;
    }
    connection.waiting = [];
    admission.decided
      .then(
        (decision) => decision && guarded(connection, () => subscribe(connection, message, decision)),
        (error: unknown) => {
          deps.log.error({ err: error, account: connection.account.name }, 'usage count not persisted');
          connection.send(errorMessage(500, 'Internal server error'));
        },
      )
      .finally(() => {
        const waiting = connection.waiting ?? [];
        connection.waiting = undefined;
        connection.waitingSize = 0;
        for (const next of waiting) receive(connection, next);
      });
  };

  /** Takes a message in: now, or after the subscribe it waits behind. */
  const receive = (connection: StreamConnection, text: string): void => {
    if (!connection.socket) return;
    if (!connection.waiting) {
      guarded(connection, () => handle(connection, text));
      return;
    }
    connection.waitingSize += text.length;
    if (connection.waitingSize > limits.push.maxQueuedBytes) {
      connection.end(closeCodes.tooManyQueued);
      return;
    }
    connection.waiting.push(text);
  };

  const subscribe = (connection: StreamConnection, message: Record<string, unknown>, decision: Decision): void => {
    if (!connection.socket) return;
    if (decision.kind === 'quotaExhausted') {
      connection.send(
        errorMessage(403, admissionMessages.quotaExhausted(decision.quota, decision.resetsOn), limitHeaderPairs(decision.limits)),
      );
      return;
    }
    if (decision.kind === 'rateLimited') {
      const headers: Array<[string, string]> = [...limitHeaderPairs(decision.limits), ['Retry-After', String(decision.retryAfterSeconds)]];
      connection.send(errorMessage(429, admissionMessages.rateLimited(decision.retryAfterSeconds), headers));
      return;
    }
    if (decision.kind === 'suspended') {
      connection.send(errorMessage(403, admissionMessages.accountSuspended));
      return;
    }
    if (decision.kind === 'noRoom') {
      connection.send(errorMessage(503, admissionMessages.noAccountRoom));
      return;
    }
    const validation = validateSearch(message);
    if (!validation.ok) {
      connection.send(errorMessage(422, validation.errors, limitHeaderPairs(decision.limits)));
      return;
    }
    const added = validation.resources.filter((resource) => !connection.subscriptions.has(topicOf(resource)));
    if (connection.subscriptions.size + added.length > limits.push.maxSubscriptionsPerConnection) {
      connection.send(errorMessage(422, [messageErrors.tooManySubscriptions], limitHeaderPairs(decision.limits)));
      return;
    }
    // In one turn: the registry learns each new resource with the view read now; the answer is
    // rendered (an edge reading a view from disk takes in the views posted meanwhile, which
    // the registry hears too); only then is the socket subscribed. So the answer shows the
    // newest view, and every later change reaches the socket: none is lost, none comes first.
    for (const resource of added) {
      connection.subscriptions.set(topicOf(resource), resource);
      deps.registry.follow(resource, (deps.views.view(resource.key) ?? pendingView).entryEnd);
    }
    const now = deps.now();
    const rendered = renderSearchResponse(validation.resources, deps.views, now);
    if (rendered.wanted) deps.demand.wanted(rendered.wanted, now);
    for (const resource of added) connection.socket?.subscribe(topicOf(resource));
    connection.send(subscribedMessage(limitHeaderPairs(decision.limits), rendered.body.toString()));
  };

  const unsubscribe = (connection: StreamConnection, message: Record<string, unknown>): void => {
    const validation = validateSearch(message);
    if (!validation.ok) {
      connection.send(errorMessage(422, validation.errors));
      return;
    }
    for (const resource of validation.resources) {
      const topic = topicOf(resource);
      if (!connection.subscriptions.delete(topic)) continue;
      deps.registry.unfollow(resource);
      connection.socket?.unsubscribe(topic);
    }
    connection.send(unsubscribedMessage(validation.resources));
  };

  return {
    receive,
    /** Forgets what a closed connection followed. */
    closed(connection: StreamConnection): void {
      for (const resource of connection.subscriptions.values()) deps.registry.unfollow(resource);
      connection.subscriptions.clear();
    },
  };
}
