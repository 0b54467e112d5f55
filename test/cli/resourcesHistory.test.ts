// `datapoints resources history` in process (docs/history.md#cli): the API's daily series of one
// resource, read from the data directory, as JSON or CSV; usage errors as one line.
import t from 'tap';
import { resourcesCommand } from '../../src/cli/resourceCommands.js';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { tempDataDir } from '../helpers/service.js';
import { availableResource, commitResource, pendingResource } from '../store/resourceFixtures.js';

t.test('resources history - prints the daily series as CSV, and refuses what it cannot answer', async (t) => {
  const data = tempDataDir(t);
  const dbs = openDatabases(data);
  const store = new ResourceStore(dbs);
  await commitResource(store, { key: 'github/account/octocat', next: pendingResource() });
  await commitResource(store, {
    key: 'github/account/octocat',
    base: { version: 1, resource: pendingResource() },
    next: availableResource(7),
  });
  await dbs.root.close();
  const lines: string[] = [];
  await resourcesCommand(['history', 'github', 'account', 'OctoCat', '--days', '3650', '--csv', '--data', data], (line) =>
    lines.push(line),
  );
  t.same(lines, [
    'platform,type,identifier,status,group,datapoint,at,value\r\n' +
      'github,account,OctoCat,available,metrics,followers,2026-11-23,7\r\n' +
      'github,account,OctoCat,available,attributes,likes,2026-11-23,21',
  ]);
  await t.rejects(
    resourcesCommand(['history', 'github', 'account', 'nobody', '--data', data], () => undefined),
    {
      message: 'resource github/account/nobody is not tracked',
    },
  );
  await t.rejects(
    resourcesCommand(['history', 'github', 'account', '--data', data], () => undefined),
    {
      message: 'resources history needs PLATFORM TYPE IDENTIFIER',
    },
  );
  await t.rejects(
    resourcesCommand(['history', 'github', 'account', 'octocat', '--days', '0', '--data', data], () => undefined),
    {
      message: "invalid --days '0': give a whole number 1-3650",
    },
  );
});
