// Loading the plugins of fixtures/plugins/isolation for the isolate tests.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PluginIsolate, type IsolateLimits } from '../../host/plugins/isolate.ts';
import { PluginLoadError } from '../../host/plugins/plugin-errors.ts';
import { FIXTURES } from '../support/fixtures.ts';

export const fixture = (name: string): string => join(FIXTURES, 'plugins', 'isolation', `${name}.mjs`);

export function load(name: string, limits?: Partial<IsolateLimits>): Promise<PluginIsolate> {
  const file = fixture(name);
  return PluginIsolate.load({ file, source: readFileSync(file, 'utf8'), ...(limits ? { limits } : {}) });
}

/** The load error of a fixture that must not load, checked to name its file. */
export async function loadError(name: string): Promise<PluginLoadError> {
  try {
    (await load(name)).dispose();
  } catch (e) {
    expect(e).to.be.instanceOf(PluginLoadError);
    expect((e as PluginLoadError).file).to.equal(fixture(name));
    return e as PluginLoadError;
  }
  throw new Error(`${name} loaded`);
}
