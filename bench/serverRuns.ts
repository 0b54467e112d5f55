// One scenario against one running server: the preflight request, the measured runs, and
// the server's memory while they ran; or the same run by run with the baselines.
import { sampleMemory } from './memory.js';
import { measure, measureInterleaved, type Measurement, type RunHooks } from './measure.js';
import { log } from './log.js';
import { timing } from './options.js';
import { preflight } from './preflight.js';
import { baselineEntry, serverCore, startPinned, type RunningServer } from './processes.js';
import { baselineNames, type BaselineName, type ScenarioResult } from './report.js';
import type { ScenarioShape } from './scenarios.js';

const baselineEntries: Record<BaselineName, string> = {
  'spec-floor': 'specFloor',
  'uws-static': 'uwsStatic',
  'fastify-static': 'fastifyStatic',
};

export async function runScenario<T>(
  server: RunningServer,
  scenario: ScenarioShape,
  notes: ScenarioResult['notes'] = {},
  hooks: RunHooks<T> = {},
): Promise<ScenarioResult> {
  log(`  ${scenario.name}`);
  const answer = await preflight(server.url, scenario.shape, scenario.expectStatus, scenario.check);
  const memory = sampleMemory(server.pid);
  const measurement = await measure(server.url, scenario.shape, timing, hooks);
  return resultOf(scenario, answer.bytes, measurement, memory.stop(), notes);
}

/**
 * A scenario measured run by run with every baseline answering a body of its size, all the
 * servers up on the server core (the idle ones cost nothing), so that their ratios see one
 * state of the machine.
 */
export async function runWithBaselines(
  server: RunningServer,
  scenario: ScenarioShape,
): Promise<{ result: ScenarioResult; baselines: Record<BaselineName, Measurement> }> {
  log(`  ${scenario.name}, run by run with ${baselineNames.join(', ')}`);
  const answer = await preflight(server.url, scenario.shape, scenario.expectStatus, scenario.check);
  const baselineServers: RunningServer[] = [];
  try {
    for (const name of baselineNames) {
      const baseline = await startPinned([serverCore], [baselineEntry(baselineEntries[name]), String(answer.bytes)]);
      baselineServers.push(baseline);
      // A baseline must answer the scenario's request with 200 and as many bytes as the service.
      const check = await preflight(baseline.url, scenario.shape, 200);
      if (check.bytes !== answer.bytes) throw new Error(`${name} answered ${check.bytes} bytes, the service ${answer.bytes}`);
    }
    const memory = sampleMemory(server.pid);
    const [measurement, ...measured] = await measureInterleaved(
      [server, ...baselineServers].map(({ url }) => ({ url, shape: scenario.shape })),
      timing,
    );
    const of = (name: BaselineName) => measured[baselineNames.indexOf(name)]!;
    const baselines = { 'spec-floor': of('spec-floor'), 'uws-static': of('uws-static'), 'fastify-static': of('fastify-static') };
    return { result: resultOf(scenario, answer.bytes, measurement!, memory.stop()), baselines };
  } finally {
    await Promise.all(baselineServers.map((baseline) => baseline.stop()));
  }
}

/** One of the servers `runSideBySide` compares, with the token its data answers to. */
export interface Contender {
  server: RunningServer;
  token: string;
  /** The name and description of its row. */
  name: string;
  what: string;
}

/**
 * One scenario on several servers, run by run (measureInterleaved), each with its own token:
 * every server must give the scenario's answer first. Results in the order of `contenders`;
 * compare them with pairedRatio.
 */
export async function runSideBySide(
  contenders: readonly Contender[],
  scenarioFor: (token: string) => ScenarioShape,
): Promise<ScenarioResult[]> {
  const scenarios = contenders.map(({ token }) => scenarioFor(token));
  const answers = await Promise.all(
    contenders.map(({ server }, index) => {
      const { shape, expectStatus, check } = scenarios[index]!;
      return preflight(server.url, shape, expectStatus, check);
    }),
  );
  const memory = contenders.map(({ server }) => sampleMemory(server.pid));
  const measured = await measureInterleaved(
    contenders.map(({ server }, index) => ({ url: server.url, shape: scenarios[index]!.shape })),
    timing,
  );
  return contenders.map(({ name, what }, index) =>
    resultOf({ ...scenarios[index]!, name, what }, answers[index]!.bytes, measured[index]!, memory[index]!.stop()),
  );
}

export function resultOf(
  scenario: ScenarioShape,
  answerBytes: number,
  measurement: Measurement,
  memory: ScenarioResult['memory'],
  notes: ScenarioResult['notes'] = {},
): ScenarioResult {
  const served = measurement.runs.reduce((sum, run) => sum + run.requests, 0);
  const wrong = measurement.runs.reduce(
    (sum, run) => sum + (scenario.expectStatus === 200 ? run.non2xx : run.requests - run.non2xx) + run.socketErrors,
    0,
  );
  if (wrong > 0) notes = { ...notes, unexpectedAnswers: wrong };
  return {
    name: scenario.name,
    what: scenario.what,
    profile: scenario.profile,
    answerBytes,
    measurement,
    memory,
    notes: { ...notes, measuredRequests: served },
  };
}
