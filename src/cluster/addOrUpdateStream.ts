// Creating a stream every node asks for at start-up (docs/design/cluster.md#streams-consumers-subjects):
// the first node's create makes it, the others' bring it to the same configuration.
import { JetStreamApiError, type JetStreamManager, type StreamConfig } from '@nats-io/jetstream';

/** The JetStream error adding a stream that exists with another configuration. */
const streamExistsOtherwise = 10_058;
/** The JetStream error asking about a stream that does not exist. */
const streamNotFound = 10_059;

/**
 * Adds `stream`, or updates it where it exists. Another node may be creating it at this very
 * moment: on a loaded machine nats-server 2.9 has refused the second of two concurrent identical
 * creates with an error other than "exists otherwise", so whenever the stream exists after a
 * refused create, it is brought to `stream`.
 */
export async function addOrUpdateStream(manager: JetStreamManager, stream: Partial<StreamConfig> & { name: string }): Promise<void> {
  try {
    await manager.streams.add(stream);
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || !(error.code === streamExistsOtherwise || (await streamExists(manager, stream.name))))
      throw error;
    await manager.streams.update(stream.name, stream);
  }
}

async function streamExists(manager: JetStreamManager, name: string): Promise<boolean> {
  try {
    await manager.streams.info(name);
    return true;
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === streamNotFound) return false;
    throw error;
  }
}
