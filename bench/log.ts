// What every benchmark script shares: progress lines go to stderr, so stdout holds only the
// figures a reader or a pipe wants.
export const log = (line: string) => process.stderr.write(`${line}\n`);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
