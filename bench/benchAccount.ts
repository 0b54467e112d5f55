// The account every scenario searches as, and the limits the spec-floor baseline reports in
// its headers: a quota and a rate limit no run can reach, so that nothing is refused, while
// the service still writes all six limit headers (an account without a quota gets three).
import type { AccountSettings } from '../src/access/provisioning.js';

export const benchAccount = {
  name: 'bench',
  settings: { plan: 'paid', quota: 1e12, rate: { limit: 1e9, windowMs: 60_000 } },
} as const satisfies { name: string; settings: AccountSettings };
