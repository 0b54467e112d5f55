// The platform emulator (docs/operations.md#emulator): one loopback HTTP server speaking every
// platform's API under `/<platform>`, plus its fault switch and count offsets under `/_emulator`.
import type { PlatformCode } from '../model.js';
import { platforms } from '../platforms/registry.js';
import { loadHandlers } from './handlers.js';
import { readBody } from '../http/body.js';
import uWS, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from '../http/uws.js';
import type { EmulatorReply } from '../platforms/emulatorContract.js';
import { countNames, EmulatorWorld, faultModes, type FaultMode } from './world.js';
import type { CountName } from '../platforms/emulatorContract.js';

export interface RunningEmulator {
  port: number;
  url: string;
  world: EmulatorWorld;
  close(): void;
}

/** Control bodies are a few fields; anything larger is a mistake. */
const maxControlBody = 4096;

/**
 * The fault switch is POST /_emulator/faults, the faults in force GET /_emulator/faults; the count
 * offsets POST and GET /_emulator/counts (docs/operations.md#moving-counts).
 */
export async function startEmulator(port = 0, now: () => number = Date.now): Promise<RunningEmulator> {
  const handlers = await loadHandlers();
  const world = new EmulatorWorld(platforms);
  const hanging = new Set<HttpResponse>();
  const app = uWS.App();

  controlRoute(app, '/_emulator/faults', {
    apply: (request) => applyFault(world, request),
    list: () => ({ faults: world.listFaults() }),
  });
  controlRoute(app, '/_emulator/counts', {
    apply: (request) => applyCounts(world, request),
    list: () => ({ counts: world.listCounts() }),
  });

  /** A platform request as its handler sees it, or undefined for a path under no platform. */
  const platformRequest = (req: HttpRequest) => {
    const url = req.getUrl();
    const slash = url.indexOf('/', 1);
    const platform = url.slice(1, slash < 0 ? undefined : slash);
    const handler = isPlatformCode(platform) ? handlers.get(platform) : undefined;
    if (!handler || !isPlatformCode(platform)) return undefined;
    const headers: Record<string, string> = {};
    req.forEach((name, value) => {
      headers[name] = value;
    });
    const request = {
      ...platformTarget(platform, slash < 0 ? '/' : url.slice(slash)),
      query: new URLSearchParams(req.getQuery() ?? ''),
      headers,
    };
    return { platform, handler, request };
  };

  app.get('/*', (res, req) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
      hanging.delete(res);
    });
    const target = platformRequest(req);
    if (!target) return send(res, { status: 404, body: 'no such platform' });
    const { context, faults } = world.scope(target.platform, now(), target.request.host);
    const reply = target.handler.handle(target.request, context) ?? notFound;

    if (faults.hang) {
      hanging.add(res);
      return;
    }
    const answer = faults.error ? { status: 503, headers: { 'content-type': 'text/plain' }, body: 'Service Unavailable' } : reply;
    if (faults.delayMs === 0) return send(res, answer);
    setTimeout(() => {
      if (!aborted) send(res, answer);
    }, faults.delayMs);
  });

  // Token endpoints only: answered at once, no faults (those belong to resources).
  app.post('/*', (res, req) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    const target = platformRequest(req);
    readBody(res, maxControlBody, (body) => {
      if (aborted) return;
      if (!target) return send(res, { status: 404, body: 'no such platform' });
      if (body.kind !== 'complete') return send(res, { status: 413, body: 'body too large' });
      const { context } = world.scope(target.platform, now(), target.request.host);
      send(res, target.handler.post?.({ ...target.request, body: body.text }, context) ?? notFound);
    });
  });

  return new Promise((resolve, reject) => {
    app.listen('127.0.0.1', port, (socket: us_listen_socket | false) => {
      if (!socket) return reject(new Error(`emulator could not listen on 127.0.0.1:${port}`));
      const actualPort = uWS.us_socket_local_port(socket);
      resolve({
        port: actualPort,
        url: `http://127.0.0.1:${actualPort}`,
        world,
        close() {
          uWS.us_listen_socket_close(socket);
          for (const res of hanging) res.close();
          hanging.clear();
        },
      });
    });
  });
}

const notFound: EmulatorReply = { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' };

/**
 * The path a platform handler is given, and on a platform whose references name their hosts the
 * host: `/<platform>/<host>/<path>` stands for https://<host>/<path> (docs/platforms.md#federated-platforms).
 */
function platformTarget(platform: PlatformCode, path: string): { path: string; host?: string } {
  if (!platforms.get(platform)!.hostsNamedByCallers) return { path };
  const slash = path.indexOf('/', 1);
  if (slash < 0) return { path: '/', host: path.slice(1) };
  return { path: path.slice(slash), host: path.slice(1, slash) };
}

function send(res: HttpResponse, reply: EmulatorReply): void {
  res.cork(() => {
    res.writeStatus(String(reply.status));
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.writeHeader(name, value);
    res.end(reply.body);
  });
}

const codes: ReadonlySet<string> = new Set(platforms.keys());
const isPlatformCode = (code: string): code is PlatformCode => codes.has(code);

/** What a control request did: the JSON to answer (none: 204 No Content), or what is wrong with it (400). */
type ControlResult = { answer?: unknown } | { problem: string };

/** A control request's fields, its `platform` checked to be one of the platforms. */
type ControlRequest = Record<string, unknown> & { platform: PlatformCode };

interface Control {
  apply(request: ControlRequest): ControlResult;
  /** The JSON GET answers: what is in force. */
  list(): unknown;
}

/**
 * POST `path`: a small JSON object naming a platform, handed to `apply`; every problem is a 400
 * `{error}`. GET `path`: what `list` says is in force.
 */
function controlRoute(app: TemplatedApp, path: string, { apply, list }: Control): void {
  app.get(path, (res) => {
    res.cork(() => res.writeStatus('200 OK').writeHeader('content-type', 'application/json').end(JSON.stringify(list())));
  });
  app.post(path, (res) => {
    res.onAborted(() => undefined);
    readBody(res, maxControlBody, (body) => {
      const result = body.kind === 'complete' ? readControl(body.text, apply) : { problem: 'body too large' };
      res.cork(() => {
        if ('problem' in result)
          res
            .writeStatus('400 Bad Request')
            .writeHeader('content-type', 'application/json')
            .end(JSON.stringify({ error: result.problem }));
        else if (result.answer === undefined) res.writeStatus('204 No Content').endWithoutBody();
        else res.writeStatus('200 OK').writeHeader('content-type', 'application/json').end(JSON.stringify(result.answer));
      });
    });
  });
}

function readControl(text: string, apply: (request: ControlRequest) => ControlResult): ControlResult {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return { problem: 'body must be JSON' };
  }
  const fields = (typeof request === 'object' && request !== null ? request : {}) as Record<string, unknown>;
  const { platform } = fields;
  if (typeof platform !== 'string' || !isPlatformCode(platform)) return { problem: `unknown platform '${String(platform)}'` };
  return apply({ ...fields, platform });
}

function applyFault(world: EmulatorWorld, { platform, identifier, mode }: ControlRequest): ControlResult {
  if (typeof identifier !== 'string' || identifier === '') return { problem: 'identifier must be a non-empty string' };
  if (!faultModes.includes(mode as FaultMode)) return { problem: `mode must be one of ${faultModes.join(', ')}` };
  world.setFault(platform, identifier, mode as FaultMode);
  return {};
}

/** Answers the offset now in force for the resource. */
function applyCounts(world: EmulatorWorld, { platform, identifier, add }: ControlRequest): ControlResult {
  if (typeof identifier !== 'string' || identifier === '' || identifier === '*')
    return { problem: 'identifier must be a non-empty string naming one resource' };
  const entries = typeof add === 'object' && add !== null && !Array.isArray(add) ? Object.entries(add) : [];
  if (entries.length === 0) return { problem: `add must be an object of counts to add, e.g. {"followers": 100}` };
  for (const [name, amount] of entries) {
    if (!countNames.includes(name as CountName)) return { problem: `add names unknown count '${name}': use ${countNames.join(', ')}` };
    if (!Number.isSafeInteger(amount)) return { problem: `add.${name} must be an integer` };
  }
  return { answer: world.addCounts(platform, identifier, add as Partial<Record<CountName, number>>) };
}
