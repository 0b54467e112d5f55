// The flags of serve are defined once (src/cli/serveFlags.ts): the table in docs/operations.md
// is written from that list, and the help and the parser take it too.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { helpText } from '../../src/cli/help.js';
import { serveFlags, serveOptions, withServeFlagsTable } from '../../src/cli/serveFlags.js';

t.test('serve flags - the table in docs/operations.md is the one the definitions produce', async (t) => {
  const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  t.ok(
    doc === withServeFlagsTable(doc),
    'docs/operations.md "Flags of `serve`" differs from src/cli/serveFlags.ts: run npm run docs:flags',
  );
});

t.test('serve flags - every defined flag is parsed and named in the help', async (t) => {
  const help = helpText('serve')!;
  t.same(
    Object.keys(serveOptions),
    serveFlags.map((flag) => flag.name),
  );
  for (const flag of serveFlags) t.match(help, new RegExp(`\\n  --${flag.name}\\b`), flag.name);
});
