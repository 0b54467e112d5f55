// The resource machine drawn as SVG from its own definition (machines/resource.ts), so the drawing
// cannot drift from the code (docs/dashboard.md#resource-inspector).
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { html, type SafeHtml } from './html.js';

interface Edge {
  from: string;
  to: string;
  event: string;
}

export interface MachineShape {
  states: string[];
  initial: string | undefined;
  edges: Edge[];
  /** Events that leave each state where it is (guarded actions, re-entries without target). */
  stays: Map<string, string[]>;
}

function transitionsOf(node: AnyStateNode, from: string, shape: MachineShape): void {
  for (const [event, definitions] of node.transitions) {
    for (const definition of definitions) {
      const targets: readonly AnyStateNode[] = definition.target ?? [];
      if (targets.length === 0) {
        shape.stays.set(from, [...(shape.stays.get(from) ?? []), event]);
        continue;
      }
      for (const target of targets) {
        if (target.key === from) shape.stays.set(from, [...(shape.stays.get(from) ?? []), event]);
        else shape.edges.push({ from, to: target.key, event });
      }
    }
  }
}

/** States and transitions of a flat machine, read from XState's own nodes. */
export function machineShape(machine: AnyStateMachine): MachineShape {
  const shape: MachineShape = {
    states: Object.keys(machine.states),
    initial: machine.root.initial?.target[0]?.key,
    edges: [],
    stays: new Map(),
  };
  transitionsOf(machine.root, '*', shape);
  for (const [key, node] of Object.entries(machine.states)) transitionsOf(node, key, shape);
  return shape;
}

const box = { width: 130, height: 36 };
const size = { width: 760, height: 460 };

/**
 * Each state a box (the current one marked), each transition to another state an arrow labelled
 * with its event, events that keep the state listed under it, and the transitions every state
 * takes (declared on the machine's root) drawn from an "any state" box.
 */
export function machineDiagram(shape: MachineShape, current: string | undefined): SafeHtml {
  // States on an ellipse, "any state" in the middle.
  const centre = { x: size.width / 2, y: size.height / 2 - 10 };
  const places = new Map<string, { x: number; y: number }>([['*', centre]]);
  shape.states.forEach((state, index) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * index) / shape.states.length;
    places.set(state, { x: centre.x + Math.cos(angle) * 290, y: centre.y + Math.sin(angle) * 165 });
  });
  const arrows = shape.edges.map((edge) => {
    const from = places.get(edge.from)!;
    const to = places.get(edge.to)!;
    // Stop the arrow at the target box's edge, along the line between centres.
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const shrink = Math.min(Math.abs((box.width / 2 + 4) / (dx || 1e-9)), Math.abs((box.height / 2 + 4) / (dy || 1e-9)));
    const end = { x: to.x - dx * shrink, y: to.y - dy * shrink };
    // Labels of arrows between states sit nearer their start, clear of the "any state" box in the middle.
    const fromAny = edge.from === '*';
    const along = fromAny ? 0.5 : 0.3;
    const label = { x: from.x + dx * along + (fromAny ? 0 : 6), y: from.y + dy * along + (fromAny ? -8 : 0) };
    return html`<g class="edge${edge.from === '*' ? ' any' : ''}"><line x1="${from.x.toFixed(0)}" y1="${from.y.toFixed(0)}" x2="${end.x.toFixed(0)}" y2="${end.y.toFixed(0)}" marker-end="url(#arrow)"></line>
<text x="${label.x.toFixed(0)}" y="${label.y.toFixed(0)}" text-anchor="${fromAny ? 'middle' : 'start'}">${edge.event}</text></g>`;
  });
  const nodes = [...places].map(([state, place]) => {
    const isCurrent = state === current;
    const stays = shape.stays.get(state) ?? [];
    const name = state === '*' ? 'any state' : state;
    return html`<g class="state${isCurrent ? ' current' : ''}${state === '*' ? ' any' : ''}"${isCurrent ? html` aria-current="true"` : ''}>
<rect x="${(place.x - box.width / 2).toFixed(0)}" y="${(place.y - box.height / 2).toFixed(0)}" width="${box.width}" height="${box.height}" rx="8"></rect>
<text x="${place.x.toFixed(0)}" y="${(place.y + 5).toFixed(0)}" text-anchor="middle">${name}${isCurrent ? ' ●' : ''}${state === shape.initial ? ' (initial)' : ''}</text>
${stays.length > 0 ? html`<text class="stays" x="${place.x.toFixed(0)}" y="${(place.y + box.height / 2 + 14).toFixed(0)}" text-anchor="middle">↻ ${stays.join(', ')}</text>` : ''}</g>`;
  });
  return html`<svg class="machine" viewBox="0 0 ${size.width} ${size.height}" role="img" aria-label="The resource machine's states and transitions${current ? `; the resource is ${current}` : ''}">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z"></path></marker></defs>
${arrows}${nodes}</svg>`;
}
