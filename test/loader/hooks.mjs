// Module hooks that load the project's TypeScript as ts-node's swc transpiler does, without
// ts-node: its resolver and set-up cost each test process about as much CPU time as the test's
// own code (docs/testing.md#how-tap-loads-typescript). Types are not checked: `pretest` does.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import swc from '@swc/core';

/** tsconfig.json's target and module, in swc's words, with an inline source map for coverage. */
const options = {
  swcrc: false,
  sourceMaps: 'inline',
  module: { type: 'es6', strictMode: true },
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
};

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
  const { code } = swc.transformSync(readFileSync(filename, 'utf8'), { ...options, filename });
  return { format: 'module', source: code, shortCircuit: true };
}
