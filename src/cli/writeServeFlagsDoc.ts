// `npm run docs:flags`: rewrites the table of serve's flags in docs/operations.md from
// src/cli/serveFlags.ts; test/cli/serveFlags.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { withServeFlagsTable } from './serveFlags.js';

const doc = new URL('../../../docs/operations.md', import.meta.url);
writeFileSync(doc, withServeFlagsTable(readFileSync(doc, 'utf8')));
