// The fixed answer both baselines send: a JSON body of exactly the size the scenario's real
// answer has, so that the baselines move the same bytes as the service.
export function fixedAnswer(bytes: number): string {
  const frame = '{"data":""}';
  return `{"data":"${'x'.repeat(Math.max(0, bytes - frame.length))}"}`;
}

/** `node <baseline> SIZE`: the answer size in bytes, 2 KB by default. */
export function answerSizeArgument(): number {
  const size = Number(process.argv[2] ?? 2048);
  if (!Number.isInteger(size) || size < 0) throw new Error(`bad answer size '${process.argv[2]}'`);
  return size;
}
