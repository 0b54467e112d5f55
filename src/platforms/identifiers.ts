// Building blocks for the identifier rules of the platform folders.

export const keepCase = (identifier: string) => identifier;
export const lowerCase = (identifier: string) => identifier.toLowerCase();
export const wholeIdentifier = (normalized: string) => normalized;

/** `<handle>:<id>` posts: the handle is case-insensitive, the id is kept as sent. */
export function lowerHandlePart(identifier: string): string {
  const colon = identifier.indexOf(':');
  return identifier.slice(0, colon).toLowerCase() + identifier.slice(colon);
}

/** The handle (or owner) of a `<handle>:<id>` identifier. */
export function handlePart(normalized: string): string {
  const colon = normalized.indexOf(':');
  return colon < 0 ? normalized : normalized.slice(0, colon);
}

/** The id after the colon of a `<handle>:<id>` identifier. */
export function idPart(normalized: string): string {
  return normalized.slice(normalized.indexOf(':') + 1);
}

/** The instructions that open every identifier 422 (docs/api.md#identifier-hints). */
export const accountHint = 'send the plain username or id, not the URL';
export const postHint = (shape: string) => `send the post as '${shape}', not the URL`;
