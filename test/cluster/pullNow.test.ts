// Reading the delivery count from a JetStream acknowledgement subject.
import t from 'tap';
import { deliveryCount } from '../../src/cluster/pullNow.js';

t.test('pull - the delivery count of the subject forms nats-server sends', async (t) => {
  t.equal(deliveryCount('$JS.ACK.DATAPOINTS_COLLECT.collectors.3.11.12.1795463270850467577.89'), 3, '2.9: nine tokens');
  t.equal(
    deliveryCount('$JS.ACK._.ACCHASH.DATAPOINTS_COLLECT.collectors.2.11.12.1795463270850467577.89.x7'),
    2,
    'with domain and account hash',
  );
});

t.test('pull - a subject that is not an acknowledgement subject has no delivery count', async (t) => {
  for (const subject of ['_INBOX.abc', '$JS.API.CONSUMER.INFO.S.C', '$JS.ACK.S.C.x.1.1.1.0', '$JS.ACK.S.C.0.1.1.1.0', '$JS.ACK.S.C.1.1']) {
    t.equal(deliveryCount(subject), undefined, subject);
  }
});
