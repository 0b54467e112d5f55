// The import rules of the service (docs/architecture.md, "Import rules"), checked by
// `npm run lint:deps`, which `npm test` runs first. Imports point one way:
//   http -> api -> resources -> {machines, store};  collection -> platforms;
//   machines/ and streams/ take from src/ at most the shared model types (src/model.ts).
// Leaves every layer may use: src/model.ts (which imports nothing), src/config.ts, src/log.ts, src/health.ts.

const layer = (name) => `^src/${name}/`;
const emulatorCode = '^src/emulator/|^src/platforms/[^/]+/emulator\\.ts$|^src/platforms/metaGraph/replies\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle means two modules cannot be read, loaded or changed one without the other. Type-only ' +
        'imports count too: a shared type lives in the leaf both sides import (src/model.ts, src/store/records.ts).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'machines-take-only-the-model',
      severity: 'error',
      comment: 'Resource machines are pure data and logic: from src/ they may use the shared model types only.',
      from: { path: '^machines/' },
      to: { path: '^src/', pathNot: '^src/model\\.ts$' },
    },
    {
      name: 'streams-take-only-the-model',
      severity: 'error',
      comment: 'Streams are functions of observables: from src/ they may use the shared model types only.',
      from: { path: '^streams/' },
      to: { path: '^src/', pathNot: '^src/model\\.ts$' },
    },
    {
      name: 'store-is-below-everything',
      severity: 'error',
      comment: 'Storage knows nothing of who uses it.',
      from: { path: layer('store') },
      to: { path: '^src/(resources|api|http|collection|access|platforms|emulator|cli)/|^src/service\\.ts$' },
    },
    {
      name: 'resources-below-api-and-http',
      severity: 'error',
      comment: 'resources -> {machines, store}: the resource side never reaches up to the API, HTTP or collection.',
      from: { path: layer('resources') },
      to: { path: '^src/(api|http|collection|access|platforms|emulator|cli)/|^src/service\\.ts$' },
    },
    {
      name: 'api-below-http',
      severity: 'error',
      comment: 'api -> resources: answers are shaped without knowing the transport, and read storage through resources.',
      from: { path: layer('api') },
      to: { path: '^src/(http|store|collection|access|emulator|cli)/|^src/service\\.ts$' },
    },
    {
      name: 'http-through-api-and-resources',
      severity: 'error',
      comment: 'http -> api -> resources: the front end never opens storage or drives collection itself.',
      from: { path: layer('http') },
      to: { path: '^src/(store|collection|platforms|emulator|cli)/|^src/service\\.ts$|^machines/|^streams/' },
    },
    {
      name: 'collection-towards-platforms',
      severity: 'error',
      comment: 'collection -> platforms: the loop meets the resource side only through its ports.',
      from: { path: layer('collection') },
      to: { path: '^src/(http|api|resources|store|access|emulator|cli)/|^src/service\\.ts$|^machines/' },
    },
    {
      name: 'platforms-know-no-service',
      severity: 'error',
      comment: 'A platform folder is its identifier rules, collector and emulator handler, nothing of the service.',
      from: { path: layer('platforms') },
      to: { path: '^src/(http|api|resources|store|access|collection|cli)/|^src/service\\.ts$|^machines/|^streams/' },
    },
    {
      name: 'emulator-code-loaded-only-when-asked',
      severity: 'error',
      comment:
        'Emulator code (src/emulator/, each platform folder\'s emulator.ts, the Graph replies) is loaded by ' +
        'production code only through a dynamic import where it is started (docs/operations-endpoints.md, ' +
        '"The emulator stays out"); elsewhere only its types.',
      from: { path: '^src/', pathNot: emulatorCode },
      to: { path: emulatorCode, dependencyTypesNot: ['type-only', 'dynamic-import'] },
    },
    {
      name: 'only-the-composition-assembles',
      severity: 'error',
      comment: 'src/node/ holds the assemblies of a node; src/service.ts alone puts them together.',
      from: { path: '^(src|machines|streams)/', pathNot: '^src/node/|^src/service\\.ts$' },
      to: { path: '^src/node/' },
    },
    {
      name: 'only-the-command-line-wires',
      severity: 'error',
      comment: 'src/service.ts is the composition root; only the command line starts it.',
      from: { path: '^(src|machines|streams)/', pathNot: '^src/cli/|^src/cli\\.ts$' },
      to: { path: '^src/service\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.(test|contract)\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
