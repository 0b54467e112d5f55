// The words of a refusal at admission (docs/api.md#errors), the same in an HTTP answer (src/http/errors.ts)
// and on the resource stream (docs/push.md#counting).
export const admissionMessages = {
  quotaExhausted: (quota: number, resetsOn: string) => `Monthly quota of ${quota} requests exhausted; it resets on ${resetsOn}`,
  rateLimited: (retryAfterSeconds: number) => `Rate limit exceeded; retry after ${retryAfterSeconds} seconds`,
  noAccountRoom: 'This server admits requests for no more accounts; try again later',
  /** docs/api.md#a-53: the operator's reason stays with the operator. */
  accountSuspended: 'This account is suspended; its requests are refused until the operator resumes it',
} as const;
