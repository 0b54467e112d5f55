// One writer of the two-process commit race (conditionalCommit.test.ts): opens the data
// directory, reads the resource's version and says `ready <version>`, waits for `go` on stdin,
// then commits its own successor and says `won` or `lost`.
import { createInterface } from 'node:readline';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { availableResource, commitResource } from './resourceFixtures.js';

const [dataDir, key, followers] = process.argv.slice(2);
const dbs = openDatabases(dataDir!);
const store = new ResourceStore(dbs);
const read = store.snapshotEntry(key!);
process.stdout.write(`ready ${read?.version}\n`);
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line !== 'go') continue;
  const won = await commitResource(store, { key: key!, base: read, next: availableResource(Number(followers)) });
  process.stdout.write(won ? 'won\n' : 'lost\n');
  break;
}
lines.close();
await dbs.root.close();
