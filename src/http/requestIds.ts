// Request ids that are unique across restarts without a random draw per request.
import { randomBytes } from 'node:crypto';

export function requestIdSource(): () => string {
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  return () => `${prefix}-${(counter++).toString(36)}`;
}
