// Every place that cites a rule names it as `docs/file.md#anchor`, and that anchor exists: a
// heading renamed or a section removed fails here instead of leaving a citation pointing at
// nothing (docs/README.md#citing-the-docs).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { anchorsOf } from './docAnchors.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const citing = ['src', 'machines', 'streams', 'bench', 'test', 'docs', 'README.md', '.ci', '.taprc', 'package.json'];

function filesUnder(path: string): string[] {
  const full = join(root, path);
  if (!statSync(full, { throwIfNoEntry: false })) return [];
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'results' || entry.name === 'fixtures') return [];
    const child = join(path, entry.name);
    return entry.isDirectory() ? filesUnder(child) : /\.(ts|md|mjs|cjs)$|^run$/.test(entry.name) ? [join(root, child)] : [];
  });
}

const anchorCache = new Map<string, Set<string> | undefined>();
function anchorsOfDoc(docPath: string): Set<string> | undefined {
  if (!anchorCache.has(docPath)) {
    const text = statSync(docPath, { throwIfNoEntry: false }) ? readFileSync(docPath, 'utf8') : undefined;
    anchorCache.set(docPath, text === undefined ? undefined : anchorsOf(text));
  }
  return anchorCache.get(docPath);
}

t.test('docs citations - every docs/file.md#anchor cited names a file and an anchor that exist', async (t) => {
  const broken: string[] = [];
  for (const file of citing.flatMap(filesUnder)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bdocs\/([a-z0-9/-]+\.md)(?:#([\w-]+))?/g)) {
      const [cited, docFile, anchor] = match;
      if (docFile === 'file.md') continue; // the pattern itself, as this suite and its doc write it
      const anchors = anchorsOfDoc(join(root, 'docs', docFile as string));
      if (anchors === undefined) broken.push(`${relative(root, file)}: ${cited} (no such file)`);
      else if (anchor !== undefined && !anchors.has(anchor)) broken.push(`${relative(root, file)}: ${cited} (no such anchor)`);
    }
  }
  t.same(broken, [], 'citations pointing at nothing');
});

t.test('docs citations - a rule is cited by anchor, never by a quoted heading', async (t) => {
  const quoted: string[] = [];
  for (const file of citing.flatMap(filesUnder)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bdocs\/[a-z0-9/-]+\.md, "[^"]+"/g)) quoted.push(`${relative(root, file)}: ${match[0]}`);
  }
  t.same(quoted, [], 'quoted-heading citations (write docs/file.md#anchor)');
});

t.test('docs anchors - headings get the slugs a Markdown renderer gives them', async (t) => {
  const anchors = anchorsOf(
    '# Title\n## The `serve` flags: a list\n## Repeat\n## Repeat\n<a id="a-14"></a>text\n```\n# not a heading\n```\n',
  );
  t.same([...anchors].sort(), ['a-14', 'repeat', 'repeat-1', 'the-serve-flags-a-list', 'title']);
});
