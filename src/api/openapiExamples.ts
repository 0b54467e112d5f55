// Examples of the search operation for the OpenAPI document (docs/api.md#openapi-examples):
// identifiers from the platform rules' own examples, the 422 from the validator itself, and
// answers the tests check against both the schemas and live answers (test/http/openapi.test.ts).
import { identifierRules } from '../platforms/registry.js';
import { validateSearch } from './validation.js';

const example = (platform: string, type: string) => {
  const found = identifierRules.find((entry) => entry.platform === platform && entry.type === type);
  if (!found) throw new Error(`no identifier rule for ${platform} ${type}`);
  return { platform, type, identifier: found.rule.examples.valid };
};

const githubAccount = example('github', 'account');
const xPost = example('x', 'post');
const youtubeChannel = example('youtube', 'account');

export const searchRequestExample = { resources: [githubAccount, xPost, youtubeChannel] };

const collectedAt = '2026-11-26T09:14:03.512Z';
const datapoint = (value: number | boolean | null, semantic: string) =>
  value === null
    ? { value, status: 'unavailable', collected_at: collectedAt, semantic }
    : { value, status: 'available', collected_at: collectedAt, semantic };

export const searchAnswerExample = {
  data: [
    {
      ...githubAccount,
      status: 'available',
      metrics: { followers: datapoint(21034, 'followers'), following: datapoint(9, 'following'), posts: datapoint(8, 'repositories') },
    },
    { ...xPost, status: 'pending' },
    {
      ...youtubeChannel,
      status: 'available',
      metrics: { followers: datapoint(20100000, 'subscribers'), following: datapoint(null, 'following'), posts: datapoint(1690, 'videos') },
    },
  ],
};

/** What the validator answers for a body with an unknown platform and an identifier holding a space. */
function validationExample() {
  const validation = validateSearch({
    resources: [
      { platform: 'myspace', type: 'account', identifier: 'tom' },
      { platform: 'x', type: 'account', identifier: 'jack smith' },
    ],
  });
  if (validation.ok) throw new Error('the 422 example must be refused');
  return { errors: validation.errors };
}

/** The bodies of the refusals, as src/http/errors.ts words them (docs/api.md#errors). */
export const answerExamples = {
  unauthorized: { error: 'Authentication required: send Authorization: Bearer <API_TOKEN>' },
  quotaExhausted: { error: 'Monthly quota of 500 requests exhausted; it resets on 2026-12-01' },
  bodyTooLarge: { error: 'Request body exceeds the limit of 1048576 bytes' },
  invalid: validationExample(),
  rateLimited: { error: 'Rate limit exceeded; retry after 12 seconds' },
  internal: { error: 'Internal server error', request_id: '6f1c2a9e-1k3b7' },
  unavailable: { error: 'The service is shutting down' },
};
