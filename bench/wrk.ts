// Drives wrk (one thread, keep-alive connections, pinned to the load core) with a Lua script
// generated per scenario, and reads back the figures its `done` hook prints as JSON.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCore } from './processes.js';

/** What every request of a run looks like. */
export interface LoadShape {
  path: string;
  headers: Record<string, string>;
  /** Request bodies, sent in rotation (one body: the same request every time). */
  bodies: string[];
  /**
   * Every `every`-th request is built from `template` instead: each `%ID%` becomes an id
   * unique to this run (resources new to the service), each `%RAND%` a random integer
   * below `randomBelow` (resources picked at random from a large seeded set).
   */
  generated?: { every: number; template: string; randomBelow?: number };
}

export interface WrkResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses outside 2xx/3xx (expected for the 401 and 422 scenarios). */
  non2xx: number;
  socketErrors: number;
}

export const connections = 64;

/** Installs wrk from Debian if it is missing (the bench runs as root on the bench machine). */
export function ensureWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return;
  } catch (error) {
    // wrk --version exits 1 after printing its banner: only a missing binary is a problem.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
  }
  try {
    execFileSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'ignore' });
  } catch {
    execFileSync('apt-get', ['update'], { stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'ignore' });
  }
}

const luaString = (text: string) => {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  return `[${level}[${text}]${level}]`;
};

function luaScript(shape: LoadShape): string {
  const headers = Object.entries(shape.headers)
    // The spaces keep `[ [[name]] ]` from lexing as a long bracket `[[[`.
    .map(([name, value]) => `[ ${luaString(name)} ] = ${luaString(value)}`)
    .join(', ');
  const generated = shape.generated
    ? `local every, template, randomBelow = ${shape.generated.every}, ${luaString(shape.generated.template)}, ${shape.generated.randomBelow ?? 1}`
    : 'local every, template, randomBelow = nil, nil, 1';
  return `
local headers = { ${headers} }
local bodies = { ${shape.bodies.map(luaString).join(',\n')} }
${generated}
local requests, n, nonce = {}, 0, 'r'
local function random() return tostring(math.random(0, randomBelow - 1)) end
function init(args)
  nonce = args[1] or 'r'
  math.randomseed(os.time())
  for i, body in ipairs(bodies) do requests[i] = wrk.format('POST', ${luaString(shape.path)}, headers, body) end
end
function request()
  n = n + 1
  if every and n % every == 0 then
    local body = template:gsub('%%ID%%', nonce .. n):gsub('%%RAND%%', random)
    return wrk.format('POST', ${luaString(shape.path)}, headers, body)
  end
  return requests[(n % #requests) + 1]
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"non2xx":%d,"socketErrors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status,
    e.connect + e.read + e.write + e.timeout))
end
`;
}

/** Runs wrk once for `seconds` against `url` and returns its figures. */
export async function runWrk(url: string, shape: LoadShape, seconds: number, nonce: string): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-wrk-'));
  const script = join(dir, 'load.lua');
  writeFileSync(script, luaScript(shape));
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('taskset', [
        '-c',
        String(loadCore),
        'wrk',
        '-t1',
        `-c${connections}`,
        `-d${seconds}s`,
        '--timeout',
        '5s',
        '-s',
        script,
        url + shape.path,
        '--',
        nonce,
      ]);
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
    });
    const line = /WRK_JSON (\{.*\})/.exec(output);
    if (!line) throw new Error(`wrk printed no figures:\n${output}`);
    const raw = JSON.parse(line[1]!) as {
      requests: number;
      durationUs: number;
      p50Us: number;
      p99Us: number;
      non2xx: number;
      socketErrors: number;
    };
    const secondsRun = raw.durationUs / 1e6;
    return {
      requests: raw.requests,
      seconds: secondsRun,
      requestsPerSecond: raw.requests / secondsRun,
      p50Ms: raw.p50Us / 1000,
      p99Ms: raw.p99Us / 1000,
      non2xx: raw.non2xx,
      socketErrors: raw.socketErrors,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
