// HTML from a tagged template that escapes every value it is given (docs/dashboard.md#escaping):
// only markup made by `html` itself passes unchanged, so no name or note can become markup.

/** Markup made by `html`: the one kind of value inserted without escaping. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const replacements: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => replacements[character]!);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let text = strings[0]!;
  for (let index = 0; index < values.length; index++) text += render(values[index]!) + strings[index + 1]!;
  return new SafeHtml(text);
}
