// Baseline `uws-static`: bare uWebSockets.js that reads the whole request body and answers a
// fixed response of the scenario's size. The ceiling the search path is measured against.
import { answerSizeArgument, fixedAnswer } from './fixedAnswer.js';
import { serveUwsBaseline } from './uwsBaseline.js';

const answer = fixedAnswer(answerSizeArgument());

serveUwsBaseline('uws-static', (res) => {
  let aborted = false;
  res.onAborted(() => {
    aborted = true;
  });
  const chunks: Buffer[] = [];
  res.onData((chunk, isLast) => {
    // uWS reuses the chunk's memory after the callback: copy it, as the service does.
    chunks.push(Buffer.from(chunk.slice(0)));
    if (!isLast || aborted) return;
    res.cork(() => {
      res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json').end(answer);
    });
  });
});
