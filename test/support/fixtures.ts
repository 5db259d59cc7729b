// Recorded Codex 0.171.0 requests (copied from the protocol captures into fixtures/).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');

export interface CapturedRequest {
  readonly scenario: string;
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
}

export function capturedRequest(name: string): CapturedRequest {
  return JSON.parse(readFileSync(join(FIXTURES, 'codex', 'requests', `${name}.json`), 'utf8')) as CapturedRequest;
}

export function capturedRequestNames(): string[] {
  return readdirSync(join(FIXTURES, 'codex', 'requests')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}
