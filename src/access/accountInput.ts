// Account settings as an operator writes them, on the command line (`datapoints accounts`) or in
// the console's forms: each mistake is one UsageError (docs/operations.md#accounts).
import { accountSuspension, flagBounds, plans, type PlanName, type RatePolicy } from '../config.js';
import { parseBoundedDuration } from '../operatorInput.js';
import { UsageError } from '../usageError.js';
import type { AccountSettings } from './provisioning.js';

const accountName = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkAccountName(name: string | undefined): string {
  if (name === undefined) throw new UsageError('an account NAME is required');
  if (!accountName.test(name)) throw new UsageError(`invalid account name '${name}': use 1-64 letters, digits, '.', '_' or '-'`);
  return name;
}

function parsePlan(text: string): PlanName {
  if (text === 'free' || text === 'paid') return text;
  throw new UsageError(`invalid --plan '${text}': use ${Object.keys(plans).join(' or ')}`);
}

function parseQuota(text: string): number | null {
  if (text === 'none') return null;
  if (!/^\d{1,15}$/.test(text)) throw new UsageError(`invalid --quota '${text}': give a whole number or 'none'`);
  return Number(text);
}

function parseRate(text: string): RatePolicy {
  const match = /^(\d{1,9})\/(.+)$/.exec(text);
  if (!match || Number(match[1]) < 1) throw new UsageError(`invalid --rate '${text}': write it like 60/1m`);
  const windowMs = parseBoundedDuration({ text: match[2]!, source: `--rate window` }, flagBounds.rateWindowMs);
  return { limit: Number(match[1]), windowMs };
}

export function settingsFrom(values: { plan?: string; quota?: string; rate?: string }): AccountSettings {
  return {
    ...(values.plan === undefined ? {} : { plan: parsePlan(values.plan) }),
    ...(values.quota === undefined ? {} : { quota: parseQuota(values.quota) }),
    ...(values.rate === undefined ? {} : { rate: parseRate(values.rate) }),
  };
}

/** The operator's reason for a suspension: one line, bounded like a token's note. */
export function checkReason(reason: string | undefined): string | null {
  if (reason === undefined) return null;
  if (reason.length === 0 || reason.length > accountSuspension.maxReasonLength || /\p{Cc}/u.test(reason)) {
    throw new UsageError(`invalid --reason: give one line of 1 to ${accountSuspension.maxReasonLength} characters`);
  }
  return reason;
}
