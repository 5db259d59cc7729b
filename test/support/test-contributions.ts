// Contributions defined by the test suite and registered through the real registry: each
// translates to a real carrier through the real exec wrapper (no stubbed product path).
import type { Contribution, CustomToolSpec, ToolSpecContext, TranslateOutcome } from '../../host/registry/contribution.ts';

/** `argv_echo`: each input line becomes one argv value of `printf '%s\n' …`; a line "!reject" is a model-input error. */
export function argvEcho(opts: { supersedes?: Contribution['supersedes']; name?: string } = {}): Contribution {
  const name = opts.name ?? 'argv_echo';
  return {
    name,
    source: { kind: 'test', suite: 'hpatch-router tests' },
    ...(opts.supersedes ? { supersedes: opts.supersedes } : {}),
    toolSpec(ctx: ToolSpecContext): CustomToolSpec {
      const params = ctx.execParamsShape ? `\nexec params: ${ctx.execParamsShape}` : '';
      return { type: 'custom', name, description: `Prints each input line as one argument.${params}` };
    },
    async translate(input: string): Promise<TranslateOutcome> {
      const lines = input.split('\n');
      if (lines.includes('!reject')) return { kind: 'diagnostic', message: 'input contains !reject' };
      return { kind: 'carrier', request: { kind: 'exec', command: { argv: ['printf', '%s\\n', ...lines] } } };
    },
  };
}

/** A translator that breaks its protocol in the way named by `how`. */
export function brokenTranslator(how: 'throws' | 'garbage' | 'bad-template' | 'unavailable-carrier'): Contribution {
  return {
    name: `broken_${how.replace(/-/g, '_')}`,
    source: { kind: 'test', suite: 'hpatch-router tests' },
    toolSpec: () => ({ type: 'custom', name: `broken_${how.replace(/-/g, '_')}` }),
    async translate(): Promise<TranslateOutcome> {
      switch (how) {
        case 'throws': throw new Error('translator exploded');
        case 'garbage': return { kind: 'response', output: [] } as unknown as TranslateOutcome;
        case 'bad-template': return { kind: 'carrier', request: { kind: 'exec', command: { argv: ['true'] }, template: 'no placeholder' } };
        case 'unavailable-carrier': return { kind: 'carrier', request: { kind: 'exec', via: 'exec_command', command: { argv: ['true'] } } };
      }
    },
  };
}

/** `slow_echo`: runs `sleep <input>; echo finished` with `yield_time_ms: 250`, so a longer sleep yields a continuation. */
export function slowEcho(): Contribution {
  return {
    name: 'slow_echo',
    source: { kind: 'test', suite: 'hpatch-router tests' },
    toolSpec: () => ({ type: 'custom', name: 'slow_echo', description: 'Sleeps the given seconds, then prints "finished".' }),
    async translate(input: string): Promise<TranslateOutcome> {
      if (!/^\d+(\.\d+)?$/.test(input.trim())) return { kind: 'diagnostic', message: 'input must be a number of seconds' };
      return { kind: 'carrier', request: { kind: 'exec', command: { argv: ['sh', '-c', `sleep ${input.trim()}; echo finished`] }, params: { yield_time_ms: 250 } } };
    },
  };
}
