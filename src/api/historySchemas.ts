// The history request and answer as JSON Schema, for the OpenAPI document (docs/history.md#api).
import Type from 'typebox';
import { limits } from '../config.js';
import { metricNames, resourceTypes } from '../model.js';
import { platformCodes } from '../platforms/registry.js';
import { ResourceReference } from './schema.js';

export const HistoryRequest = Type.Object({
  resources: Type.Array(ResourceReference, { minItems: 1, maxItems: limits.maxResourcesPerRequest }),
  from: Type.Optional(
    Type.String({ description: 'ISO 8601 date (its UTC day begins the range) or date-time with zone; default: 30 days before `to`' }),
  ),
  to: Type.Optional(Type.String({ description: 'ISO 8601 date (its UTC day ends the range) or date-time with zone; default: now' })),
  interval: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('collection')], { description: 'default day' })),
});

const pointValue = Type.Union([Type.Number(), Type.Boolean(), Type.Null()]);

export const HistorySeries = Type.Object({
  series: Type.Array(
    Type.Object({
      at: Type.String({ description: 'day: the UTC date; collection: the collected_at of the point' }),
      value: pointValue,
    }),
    { description: 'Oldest first' },
  ),
  first: pointValue,
  last: pointValue,
  change: Type.Union([Type.Number(), Type.Null()], { description: 'last - first when both are numbers' }),
});

export const HistoryEntry = Type.Object({
  platform: Type.Enum(platformCodes),
  type: Type.Enum(resourceTypes),
  identifier: Type.String({ description: 'As sent' }),
  status: Type.String({ description: "The resource's status, as the search gives it" }),
  metrics: Type.Optional(Type.Record(Type.String(), HistorySeries, { description: `Series by datapoint name: ${metricNames.join(', ')}` })),
  attributes: Type.Optional(Type.Record(Type.String(), HistorySeries)),
});

export const HistoryAnswer = Type.Object({ data: Type.Array(HistoryEntry) });
