// Baseline `fastify-static`: Fastify 5 with its defaults (it parses the JSON body) answering
// a fixed response of the scenario's size.
import Fastify from 'fastify';
import { answerSizeArgument, fixedAnswer } from './fixedAnswer.js';

const answer = fixedAnswer(answerSizeArgument());
const app = Fastify({ logger: false });
app.post('/*', (_request, reply) => {
  reply.type('application/json').send(answer);
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening on ${address}\n`);
