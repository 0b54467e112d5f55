// Checks live answers against the OpenAPI document: the status is documented for the operation,
// the body matches its response schema, documented headers are present and well-formed, and no
// limit or authentication header goes undocumented. The schemas are read from the document as
// JSON (dereferenced by the OpenAPI validator) and compiled by Ajv, not taken from the TypeBox
// objects, so the document itself is what is checked.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/api/openapi.js';

export interface LiveAnswer {
  method: string;
  /** The operation's path as the document names it. */
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
}

/** Headers whose presence the document must account for. */
const accountable = (name: string) => name.startsWith('x-') || name === 'retry-after' || name === 'www-authenticate';

interface Documented {
  body: ValidateFunction;
  headers: Array<{ name: string; required: boolean; check: ValidateFunction; integer: boolean }>;
}

type Json = Record<string, any>;

export interface OpenApiChecker {
  /** Every way `answer` departs from the document; empty when it matches. */
  check(answer: LiveAnswer): string[];
}

/** A checker for `document`, which must be a valid OpenAPI 3.1 document. */
export async function openApiChecker(document: Json): Promise<OpenApiChecker> {
  const validator = new Validator();
  const validation = await validator.validate(structuredClone(document));
  if (!validation.valid) throw new Error(`not a valid OpenAPI document: ${JSON.stringify(validation.errors)}`);
  const resolved: Json = validator.resolveRefs();
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const compiled = new Map<string, Documented | undefined>();

  const documented = (method: string, path: string, status: number): Documented | undefined => {
    const key = `${method} ${path} ${status}`;
    if (!compiled.has(key)) {
      const response: Json | undefined = resolved.paths?.[path]?.[method.toLowerCase()]?.responses?.[String(status)];
      compiled.set(
        key,
        response && {
          body: ajv.compile(response.content['application/json'].schema),
          headers: Object.entries<Json>(response.headers ?? {}).map(([name, header]) => ({
            name: name.toLowerCase(),
            required: header.required === true,
            check: ajv.compile(header.schema),
            integer: header.schema.type === 'integer',
          })),
        },
      );
    }
    return compiled.get(key);
  };

  return {
    check({ method, path, status, headers, body }) {
      const expected = documented(method, path, status);
      if (!expected) return [`${method} ${path}: status ${status} is not documented`];
      const problems: string[] = [];
      if (headers.get('content-type') !== 'application/json') problems.push(`content-type is ${headers.get('content-type')}`);
      if (!expected.body(body)) problems.push(`body: ${ajv.errorsText(expected.body.errors)}`);
      for (const header of expected.headers) {
        const value = headers.get(header.name);
        if (value === null) {
          if (header.required) problems.push(`header ${header.name} is missing`);
          continue;
        }
        const typed = header.integer && /^-?\d+$/.test(value) ? Number(value) : value;
        if (!header.check(typed)) problems.push(`header ${header.name} '${value}': ${ajv.errorsText(header.check.errors)}`);
      }
      for (const [name] of headers) {
        if (accountable(name) && !expected.headers.some((header) => header.name === name)) {
          problems.push(`header ${name} is not documented for ${status}`);
        }
      }
      return problems;
    },
  };
}

let shared: Promise<OpenApiChecker> | undefined;

/**
 * Every way `answer` departs from the service's OpenAPI document; empty when it matches. For
 * end-to-end tests: `t.same(await checkAgainstOpenApi({ method: 'POST', path: searchPath, ...answer }), [])`.
 */
export async function checkAgainstOpenApi(answer: LiveAnswer): Promise<string[]> {
  shared ??= openApiChecker(JSON.parse(JSON.stringify(openApiDocument)));
  return (await shared).check(answer);
}
