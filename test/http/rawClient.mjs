// A naive HTTP client in its own process (test/http/bodyLimit.system.test.ts): writes each request,
// head and body, without waiting for an answer, and reports what came back. In the test's own
// process the client and the server would take turns on one event loop, which hides the race
// a real client meets.
// Usage: node rawClient.mjs PORT TIMES UNTIL_CLOSED < request bytes
// Prints one JSON line per attempt: { text, error? }.
import { connect } from 'node:net';

const [port, times, untilClosed] = process.argv.slice(2);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = Buffer.concat(chunks);

/** How many whole HTTP answers (head and Content-Length bytes of body) `text` holds. */
function completeAnswers(text) {
  let count = 0;
  let start = 0;
  for (;;) {
    const headEnd = text.indexOf('\r\n\r\n', start);
    const length = headEnd < 0 ? null : /\r\ncontent-length: (\d+)\r\n/i.exec(text.slice(start, headEnd + 2));
    if (length === null || text.length - headEnd - 4 < Number(length[1])) return count;
    count++;
    start = headEnd + 4 + Number(length[1]);
  }
}

for (let attempt = 0; attempt < Number(times); attempt++) {
  const answer = await new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    let error;
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (untilClosed !== 'true' && completeAnswers(text) >= 1) socket.destroy();
    });
    socket.on('error', (problem) => {
      error = problem.code ?? problem.message;
    });
    socket.on('close', () => resolve(error === undefined ? { text } : { text, error }));
    socket.write(request);
  });
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
