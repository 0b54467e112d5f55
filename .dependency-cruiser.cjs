// The import rules of the service (docs/architecture.md#import-rules), checked by
// `npm run lint:deps`, which `npm test` runs first.
//
// The folder order, from the bottom: a folder (or a file directly under src/) imports only what
// comes before it in `folderOrder`, so imports point one way and no two folders can need each
// other. A piece two folders share lives in the lower one, or in a leaf below both.
//   leaves:     src/model.ts (imports nothing), machines/, streams/ (both take from src/ only the
//               model), src/log.ts, src/health.ts, src/duration.ts, src/usageError.ts,
//               src/operatorInput.ts, src/faultModes.ts, src/config.ts
//   the node:   store < auth < resources < platforms < api < cluster < seams < access < operations
//               < metrics < collection < push < http < web < emulator < threads < node
//   on top:     src/service.ts (the composition) < src/cli/ < src/cli.ts
// Beyond the order: api, http and collection skip layers (http -> api -> resources -> {machines,
// store}; collection -> platforms), platforms know nothing of the service, only the composition
// assembles a node, emulator code loads only when asked, and no module cycle, type imports included.

const folderOrder = [
  'src/model.ts',
  'machines/',
  'streams/',
  'src/log.ts',
  'src/health.ts',
  'src/duration.ts',
  'src/usageError.ts',
  'src/operatorInput.ts',
  'src/faultModes.ts',
  'src/config.ts',
  'src/store/',
  'src/auth/',
  'src/resources/',
  'src/platforms/',
  'src/api/',
  'src/cluster/',
  'src/seams/',
  'src/access/',
  'src/operations/',
  'src/metrics/',
  'src/collection/',
  'src/push/',
  'src/http/',
  'src/web/',
  'src/emulator/',
  'src/threads/',
  'src/node/',
  'src/service.ts',
  'src/cli/',
  'src/cli.ts',
];
const pathOf = (unit) => `^${unit.replaceAll('.', '\\.')}${unit.endsWith('/') ? '' : '$'}`;
const layer = (name) => `^src/${name}/`;
const emulatorCode =
  '^src/emulator/|^src/platforms/[^/]+/emulator\\.ts$|^src/platforms/metaGraph/replies\\.ts$|^src/platforms/emulatorReplies\\.ts$';

module.exports = {
  forbidden: [
    ...folderOrder.slice(0, -1).map((unit, at) => ({
      name: `folder-order-${unit.replace(/\.ts$|\/$/, '').replaceAll('/', '-')}`,
      severity: 'error',
      comment: `${unit} imports only what comes before it in the folder order (docs/architecture.md#import-rules).`,
      from: { path: pathOf(unit) },
      to: { path: folderOrder.slice(at + 1).map(pathOf).join('|') },
    })),
    {
      name: 'every-folder-in-the-order',
      severity: 'error',
      comment: 'A new folder or file directly under src/ takes its place in the folder order before anything imports it.',
      from: {},
      to: { path: '^src/', pathNot: folderOrder.map(pathOf).join('|') },
    },
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
      name: 'api-reads-storage-through-resources',
      severity: 'error',
      comment: 'api -> resources: answers are shaped without knowing the transport, and read storage through resources.',
      from: { path: layer('api') },
      to: { path: layer('store') },
    },
    {
      name: 'http-through-api-and-resources',
      severity: 'error',
      comment: 'http -> api -> resources: the front end never opens storage or drives collection itself.',
      from: { path: layer('http') },
      to: { path: '^src/(store|platforms)/|^machines/|^streams/' },
    },
    {
      name: 'collection-towards-platforms',
      severity: 'error',
      comment: 'collection -> platforms: the loop meets the resource side only through its ports.',
      from: { path: layer('collection') },
      to: { path: '^src/(api|resources|store|access)/|^machines/' },
    },
    {
      name: 'platforms-know-no-service',
      severity: 'error',
      comment: 'A platform folder is its identifier rules, collector and emulator handler, nothing of the service.',
      from: { path: layer('platforms') },
      to: { path: '^src/(resources|store)/|^machines/|^streams/' },
    },
    {
      name: 'emulator-code-loaded-only-when-asked',
      severity: 'error',
      comment:
        "Emulator code (src/emulator/, each platform folder's emulator.ts, the replies they share) is loaded by " +
        'production code only through a dynamic import where it is started ' +
        '(docs/operations-endpoints.md#the-emulator-stays-out); elsewhere only its types.',
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.(test|contract)\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
