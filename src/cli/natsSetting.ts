// `--nats` / DATAPOINTS_NATS, shared by serve and the account and token commands (docs/cluster.md).
import { NatsServersError, parseNatsServers } from '../cluster/natsConnection.js';
import type { Setting } from '../operatorInput.js';
import { UsageError } from '../usageError.js';

/** The server URLs, or a one-line UsageError blaming the flag or variable they came from. */
export function natsServersSetting(nats: Setting): string[] {
  try {
    return parseNatsServers(nats.text);
  } catch (error) {
    if (error instanceof NatsServersError) throw new UsageError(`invalid ${nats.source}: ${error.message.replace(/^--nats /, '')}`);
    throw error;
  }
}
