// The records the data directory's databases hold (environment.ts names each database's type),
// declared apart from the stores that read and write them so that the layout and the stores
// do not import each other.
import type { ResourceContext } from '../../machines/resource.js';
import type { PlanName, RatePolicy } from '../config.js';
import type { Datapoint, ResourceStatus } from '../model.js';

/** What a search needs of a resource, and nothing more. */
export interface ResourceView {
  /** The result entry after its echoed platform/type/identifier: `,"status":...}` */
  entryEnd: string;
  /** For available resources: when a search should ask for an eager refresh; otherwise 0. */
  refreshAfter: number;
}

export interface StoredResource {
  value: ResourceStatus;
  context: ResourceContext;
}

/**
 * A transition as stored: `at event from to`, one line of UTF-8 (`from` is `-` for a creation).
 * Measured on the commit path, a plain string cost half the CPU of the same fields as a
 * msgpack array (docs/storage.md#transition-history); none of the fields holds a space.
 */
export type StoredTransition = string;

export interface AccountRecord {
  name: string;
  plan: PlanName;
  quota: number | null;
  rate: RatePolicy;
  createdAt: string;
  /** Whether the account may use the operator console (docs/dashboard.md#operator-role); absent: no. */
  operator?: boolean;
  /** Present while the operator has suspended the account: its searches are refused (docs/api.md#a-53). */
  suspended?: AccountSuspension;
}

export interface AccountSuspension {
  /** When it was suspended (ISO time). */
  at: string;
  /** The operator's reason, for operators only: it is never shown to the account's callers. */
  reason: string | null;
}

export interface TokenRecord {
  id: string;
  account: string;
  digest: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** The secret's first characters, to match a leaked secret to its id; absent on older tokens. */
  shown?: string;
  /** The operator's note; absent on older tokens. */
  note?: string | null;
}

/** An scrypt hash with the parameters it was made with, so that they can change later. */
export interface PasswordRecord {
  /** base64 */
  salt: string;
  /** base64 */
  hash: string;
  /** scrypt cost (N), block size (r), parallelism (p) and key length. */
  cost: number;
  blockSize: number;
  parallelization: number;
  keyLength: number;
  setAt: string;
}

export interface InviteRecord {
  account: string;
  /** ms since the epoch */
  expiresAt: number;
}

export interface SessionRecord {
  /** null: not signed in yet (a sign-in form's session, which carries its CSRF token). */
  account: string | null;
  /** The synchronizer token every form of this session must send back. */
  csrf: string;
  /** ms since the epoch */
  expiresAt: number;
}

export interface AttemptRecord {
  /** Sign-in attempts counted in this window: failed, or still being checked (docs/dashboard.md#counted-before-checked). */
  failures: number;
  /** When the window's first attempt was counted (ms since the epoch). */
  since: number;
}

/** A server's claim on its data directory (dataDirectoryClaim.ts). */
export interface ServerClaim {
  pid: number;
  /** The holder's start time (clock ticks since boot, from /proc), so a reused pid holds nothing; null where unknown. */
  started: string | null;
  /** The claimed directory's device and inode, so a claim copied with the data (a backup) holds nothing. */
  directory: string;
}

/** Where a directory's resources were collected from: the platforms themselves, or the emulator. */
export type UpstreamKind = 'real' | 'emulator';

/** The meta database: a few named values, each of its own type. */
export interface MetaRecords {
  /** Bumped by every change of accounts and tokens, so that a running server reloads them. */
  authVersion: number;
  formatVersion: number;
  upstream: UpstreamKind;
  serverClaim: ServerClaim;
  /** A cluster node's replica: the revision of the last change of the resource log applied in order. */
  resourceLogRevision: number;
  /** When the last probe of a full store was written (docs/storage.md#a-full-disk). */
  storageProbe: number;
}

export interface MetaDatabase {
  get<K extends keyof MetaRecords>(key: K): MetaRecords[K] | undefined;
  put<K extends keyof MetaRecords>(key: K, value: MetaRecords[K]): Promise<boolean>;
  remove(key: keyof MetaRecords): Promise<boolean>;
}

/** The two groups of a resource's datapoints, as its snapshot holds them (docs/history.md#what-is-recorded). */
export type DatapointGroup = 'metrics' | 'attributes';
/** A recorded datapoint value. */
export type SeriesValue = Datapoint['value'];
/** A month of one series' points: [resource key, group, datapoint name, the month's first UTC millisecond]. */
export type SeriesKey = [string, DatapointGroup, string, number];
/**
 * The month's points oldest first, packed: each point's ms after the month's start, and its
 * value at the same index (docs/history.md#layout).
 */
export type SeriesMonth = [offsets: number[], values: SeriesValue[]];
/** A commit's loose points, not yet packed into their months: [resource key, collected at] (docs/history.md#layout). */
export type LooseKey = [string, number];
/** The values that commit collected and that changed, each [group, datapoint name, value]. */
export type LoosePoints = Array<[DatapointGroup, string, SeriesValue]>;
