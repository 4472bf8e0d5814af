// NATS for the distributed target: is it there, and removing the bench's streams afterwards.
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';

/** True when a NATS server with JetStream answers at url. */
export async function natsReachable(url: string): Promise<boolean> {
  try {
    const nc = await connect({ servers: url, timeout: 2_000, maxReconnectAttempts: 0 });
    try {
      await jetstreamManager(nc, { timeout: 2_000 });
      return true;
    } finally {
      await nc.close();
    }
  } catch {
    return false;
  }
}

/** Deletes the stream `name` and the ones derived from it (`<name>_JOBS`); returns their names. */
export async function deleteStreams(url: string, name: string): Promise<string[]> {
  const nc = await connect({ servers: url, timeout: 2_000, maxReconnectAttempts: 0 });
  try {
    const jsm = await jetstreamManager(nc);
    const deleted: string[] = [];
    for await (const stream of jsm.streams.names()) {
      if (stream !== name && !stream.startsWith(`${name}_`)) continue;
      await jsm.streams.delete(stream);
      deleted.push(stream);
    }
    return deleted;
  } finally {
    await nc.close();
  }
}
