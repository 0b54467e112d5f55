// How `serve --nats URLS --role ROLE` asks to join a cluster (docs/cluster.md#serving-in-a-cluster). Apart from src/node/nodeSeams.ts so that checking the flags loads no NATS client.

/** What a node does in a cluster (docs/cluster.md#node-roles); a node alone does both. */
export type NodeRole = 'search' | 'collect' | 'both';
export const nodeRoles: readonly NodeRole[] = ['search', 'collect', 'both'];

export interface ClusterSettings {
  /** `nats://HOST:PORT` URLs, as parseNatsServers read them. */
  servers: string[];
  role: NodeRole;
}
