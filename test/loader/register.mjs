// Loads the tests' TypeScript with swc directly (docs/testing.md#how-tap-loads-typescript):
// `.taprc` imports this file into every test process, after tap's ts-node plugin.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
