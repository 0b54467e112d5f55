// Module hooks that load the project's TypeScript as ts-node's swc transpiler does, without
// ts-node: its resolver and set-up cost each test process about as much CPU time as the test's
// own code (docs/testing.md#how-tap-loads-typescript). Types are not checked: `pretest` does.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import swc from '@swc/core';

/** tsconfig.json's target and module, in swc's words, with an inline source map for coverage. */
const options = {
  swcrc: false,
  sourceMaps: 'inline',
  module: { type: 'es6', strictMode: true },
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
};

/**
 * Transpiled files, by a hash of what decides the output: every test process loads the same
 * ~200 modules, and reading one back costs a tenth of transpiling it.
 */
const cacheDir = fileURLToPath(new URL('../../node_modules/.cache/test-loader/', import.meta.url));
const cacheVersion = `${swc.version} ${JSON.stringify(options)}`;
mkdirSync(cacheDir, { recursive: true });

/** TypeScript names a sibling `.ts` module by its emitted `.js` name (NodeNext): find the `.ts`. */
export async function resolve(specifier, context, next) {
  if (context.parentURL?.endsWith('.ts') && specifier.endsWith('.js') && /^\.{1,2}\//.test(specifier)) {
    const typescript = new URL(`${specifier.slice(0, -'.js'.length)}.ts`, context.parentURL);
    if (existsSync(fileURLToPath(typescript))) return next(typescript.href, context);
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const filename = fileURLToPath(url);
  const typescript = readFileSync(filename, 'utf8');
  const cached = `${cacheDir}${createHash('sha1').update(cacheVersion).update(filename).update(typescript).digest('hex')}.js`;
  if (existsSync(cached)) return { format: 'module', source: readFileSync(cached, 'utf8'), shortCircuit: true };
  const { code } = swc.transformSync(typescript, { ...options, filename });
  // Written whole and renamed into place: four test processes, and the edge threads one server
  // starts at once, may transpile the same file at the same moment; each writes a file of its own.
  const partial = `${cached}.${process.pid}.${threadId}`;
  writeFileSync(partial, code);
  renameSync(partial, cached);
  return { format: 'module', source: code, shortCircuit: true };
}
