// The resource inspector (docs/dashboard.md#resource-inspector): a reference looked up as the API
// looks it up, its machine state, datapoints and transitions beside the machine's drawing.
import { dueEventFor } from '../../../../machines/resource.js';
import { identifierSyntax } from '../../../api/schema.js';
import { platformCodes, platforms } from '../../../platforms/registry.js';
import { resourceKey, resourceTypes } from '../../../model.js';
import { page, type WebAnswer, type WebRequest } from '../../answers.js';
import type { WebContext } from '../../context.js';
import { html, type SafeHtml } from '../../html.js';
import { layout, notice, type Viewer } from '../../layout.js';
import { machineDiagram, type MachineShape } from '../../machineDiagram.js';
import { dayAndTime, relative } from '../../peopleUnits.js';
import { resourceDatapoints } from './resourceDatapoints.js';

export const consoleResourcesPath = '/console/resources';

const isoOf = (ms: number) => new Date(ms).toISOString();

function lookupForm(platform: string, type: string, identifier: string): SafeHtml {
  const platformOptions = [...platforms.values()].map(
    (definition) =>
      html`<option value="${definition.code}"${definition.code === platform ? html` selected` : ''}>${definition.code}</option>`,
  );
  const types = resourceTypes.map((name) => html`<option${name === type ? html` selected` : ''}>${name}</option>`);
  return html`<form method="get" action="${consoleResourcesPath}" class="row">
<label for="platform">Platform</label><select id="platform" name="platform">${platformOptions}</select>
<label for="type">Type</label><select id="type" name="type">${types}</select>
<label for="identifier">Identifier</label><input id="identifier" name="identifier" required maxlength="300" value="${identifier}">
<button type="submit">Look up</button></form>`;
}

/**
 * Judges the reference by its platform and type's identifier syntax, then normalizes it; shows the
 * machine state, context, next due time, datapoints with their history and last transitions,
 * beside the machine drawn from its definition with the current state marked.
 */
export function showResource(context: WebContext, request: WebRequest, viewer: Viewer, shape: MachineShape): WebAnswer {
  const platform = request.query.get('platform') ?? '';
  const type = request.query.get('type') ?? '';
  const identifier = request.query.get('identifier') ?? '';
  const form = lookupForm(platform, type, identifier.slice(0, 300));
  const answer = (content: SafeHtml, status = '200 OK') => page(layout('Resource inspector', viewer, html`${form}${content}`), status);
  if (identifier === '') return answer(machineDiagram(shape, undefined));
  // Found in the lists rather than cast: the names are then typed as what they are.
  const platformCode = platformCodes.find((code) => code === platform);
  const resourceType = resourceTypes.find((name) => name === type);
  const syntax = identifierSyntax(platform, type);
  if (!syntax || !platformCode || !resourceType)
    return answer(notice('error', `There is no resource type '${type}' on platform '${platform}'.`), '422 Unprocessable Entity');
  if (!syntax.isValid(identifier)) {
    return answer(
      notice('error', html`<code>${identifier.slice(0, 300)}</code> is not a valid ${platform} ${type} identifier.`),
      '422 Unprocessable Entity',
    );
  }
  // Normalized as the API normalizes it, so the operator may paste what a client sent.
  const key = resourceKey({ platform: platformCode, type: resourceType, identifier: syntax.rule.normalize(identifier) });
  const { resources } = context;
  const stored = resources.snapshot(key);
  if (!stored)
    return answer(notice('error', html`Resource <code>${key}</code> is not tracked: no search has asked for it.`), '404 Not Found');
  const now = context.now();
  const due = stored.context.nextDueAt;
  const transitions = resources.history(key);
  const history =
    transitions.length === 0
      ? html`<p>No transitions recorded yet.</p>`
      : html`<table id="transitions"><caption>Last ${transitions.length} transition(s), newest first</caption><thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">From</th><th scope="col">To</th></tr></thead>
<tbody>${[...transitions]
          .reverse()
          .map(
            (transition) =>
              html`<tr><td><time datetime="${isoOf(transition.at)}">${dayAndTime(transition.at, now)}</time></td><td>${transition.event}</td><td>${transition.from ?? '—'}</td><td>${transition.to}</td></tr>`,
          )}</tbody></table>`;
  return answer(html`<h2>${key}</h2>
<dl class="facts"><dt>State</dt><dd id="state">${stored.value}</dd>
<dt>Next due</dt><dd><time datetime="${isoOf(due)}">${dayAndTime(due, now)}</time> (${due <= now ? 'overdue' : relative(due, now)}), event ${dueEventFor[stored.value]}</dd>
<dt>Failures in a row</dt><dd>${stored.context.failures}${stored.context.lastFailure ? ` (last: ${stored.context.lastFailure})` : ''}</dd>
<dt>Last success</dt><dd>${stored.context.lastSuccessAt === null ? 'never' : html`<time datetime="${isoOf(stored.context.lastSuccessAt)}">${dayAndTime(stored.context.lastSuccessAt, now)}</time>`}</dd></dl>
${resourceDatapoints({ key, groups: stored.context, history: resources.series, now })}
<h2>Machine</h2>${machineDiagram(shape, stored.value)}
<h2>Transitions</h2>${history}
<details><summary>Context as stored</summary><pre>${JSON.stringify(stored.context, null, 2)}</pre></details>`);
}
