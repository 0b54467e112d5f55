// `--metrics HOST:PORT` parsing.
import t from 'tap';
import { UsageError } from '../../src/usageError.js';
import { parseMetricsAddress } from '../../src/metrics/metricsAddress.js';

t.test('metrics address - HOST:PORT, bracketed IPv6, port 0', async (t) => {
  t.same(parseMetricsAddress('127.0.0.1:9464'), { host: '127.0.0.1', port: 9464 });
  t.same(parseMetricsAddress('metrics.internal:9100'), { host: 'metrics.internal', port: 9100 });
  t.same(parseMetricsAddress('[::1]:9464'), { host: '::1', port: 9464 });
  t.same(parseMetricsAddress('0.0.0.0:0'), { host: '0.0.0.0', port: 0 });
});

t.test('metrics address - anything else is a usage error naming the flag', async (t) => {
  for (const text of ['9464', ':9464', '127.0.0.1:', '127.0.0.1:65536', '127.0.0.1:94a', 'a b:1', 'http://host:1', '::1:9464', '']) {
    t.throws(
      () => parseMetricsAddress(text),
      new UsageError(`invalid --metrics '${text}': give HOST:PORT, e.g. 127.0.0.1:9464`),
      JSON.stringify(text),
    );
    let thrown: unknown;
    try {
      parseMetricsAddress(text);
    } catch (error) {
      thrown = error;
    }
    t.equal(thrown instanceof UsageError, true, 'a UsageError: the command line prints it and exits 2');
  }
});

t.test('metrics address - a bad DATAPOINTS_METRICS is blamed on the variable', async (t) => {
  t.throws(
    () => parseMetricsAddress('9464', 'DATAPOINTS_METRICS'),
    new UsageError("invalid DATAPOINTS_METRICS '9464': give HOST:PORT, e.g. 127.0.0.1:9464"),
  );
});
