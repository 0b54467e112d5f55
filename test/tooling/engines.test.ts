// The Node versions package.json promises must be ones every installed package supports:
// otherwise `npm ci` warns (EBADENGINE) on a Node the README says is fine, or a package
// breaks on it. docs/dependencies.md#node-versions.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import t from 'tap';

interface Manifest {
  engines?: { node?: string };
}

const packageJson: Manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const lock: { packages: Record<string, Manifest> } = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8'));

t.test('engines - every locked package supports every Node version package.json promises', async (t) => {
  const promised = packageJson.engines?.node ?? '';
  t.not(promised, '', 'package.json states the Node versions it supports');
  const narrower: string[] = [];
  for (const [path, manifest] of Object.entries(lock.packages)) {
    const needed = manifest.engines?.node;
    if (needed !== undefined && !semver.subset(promised, needed)) narrower.push(`${path} needs node ${needed}`);
  }
  t.same(narrower, [], `packages narrower than "${promised}"`);
});
