// Finds each platform's emulator handler in its folder (`src/platforms/<code>/emulator.ts`), so the
// emulator depends on the platforms, never the reverse (docs/adding-a-platform.md#checklist).
import type { PlatformCode } from '../model.js';
import { platformCodes } from '../platforms/registry.js';
import type { PlatformEmulator } from '../platforms/emulatorContract.js';

const isHandlerModule = (module: unknown): module is { emulator: PlatformEmulator } =>
  typeof module === 'object' &&
  module !== null &&
  'emulator' in module &&
  typeof module.emulator === 'object' &&
  module.emulator !== null &&
  'handle' in module.emulator &&
  typeof module.emulator.handle === 'function';

/**
 * Every platform of the registry, so adding a platform adds no line here; a platform without a
 * handler stops the emulator at start with its name.
 */
export async function loadHandlers(): Promise<ReadonlyMap<PlatformCode, PlatformEmulator>> {
  const handlers = new Map<PlatformCode, PlatformEmulator>();
  for (const code of platformCodes) {
    const module: unknown = await import(`../platforms/${code}/emulator.js`);
    if (!isHandlerModule(module))
      throw new Error(`platform ${code} has no emulator handler (src/platforms/${code}/emulator.ts exporting 'emulator')`);
    handlers.set(code, module.emulator);
  }
  return handlers;
}
