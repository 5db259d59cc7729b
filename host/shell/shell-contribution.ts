// The built-in `shell` tool as a registry Contribution (REQ-SHELL-001). The declaration in
// plugins/shell.mjs runs in its isolate like any plugin and answers the worker argv
// (`shell <interpreter fields> <exact body>`, template, params) or a rejection; around it the router
// adds what needs the host:
//   - the Code Mode description gets the request's sanitized `#!params` shape (acceptance 13);
//   - an implicit-Bash body without directives that is one simple external call becomes the direct
//     carrier (acceptance 7, direct-carrier.ts);
//   - before a worker carrier leaves, the thread's `.runtime` link is bound to this router's shell
//     wrapper (thread-storage.ts), so the installed locator finds it.
import type { Contribution, CustomToolSpec, ToolSpecContext, TranslateContext, TranslateOutcome } from '../registry/contribution.ts';
import type { Contribution as PluginToolContribution } from '../registry/contribution.ts';
import { decideDirect } from './direct-carrier.ts';
import type { ShellThreadStorage } from './thread-storage.ts';

export const SHELL_TOOL = 'shell';

export interface ShellContributionOptions {
  /** The declaration's tool as loaded through the plugin host (pluginContribution of plugins/shell.mjs). */
  readonly declared: PluginToolContribution;
  /** Bound once the executor side is up; a worker carrier needs it. */
  readonly storage: () => ShellThreadStorage | null;
}

export function shellContribution(opts: ShellContributionOptions): Contribution {
  const { declared } = opts;
  const base = declared.toolSpec({ shape: 'native', execParamsShape: null });
  const codeModeSpecs = new Map<string, CustomToolSpec>();
  return {
    name: SHELL_TOOL,
    source: Object.freeze({ kind: 'builtin' }),
    supersedes: Object.freeze({ execCommand: true }),
    toolSpec(ctx: ToolSpecContext): CustomToolSpec {
      if (ctx.shape !== 'code_mode' || ctx.execParamsShape === null) return base;
      // One frozen object per distinct shape: requests of a thread then carry identical tools.
      let spec = codeModeSpecs.get(ctx.execParamsShape);
      if (spec === undefined) {
        spec = Object.freeze({ ...base, description: `${base.description}\n\n#!params fields (JSON object; cmd comes from the script):\n${ctx.execParamsShape}` });
        if (codeModeSpecs.size < 16) codeModeSpecs.set(ctx.execParamsShape, spec);
      }
      return spec;
    },
    async translate(input: string, ctx: TranslateContext): Promise<TranslateOutcome> {
      const outcome = await declared.translate(input, ctx);
      if (outcome.kind !== 'carrier') return outcome;
      const req = outcome.request;
      const argv = 'argv' in req.command ? req.command.argv : null;
      // The whole input is the body exactly when no shebang or directive line was removed.
      if (argv !== null && argv.length === 3 && argv[1] === 'bash' && argv[2] === input && req.template === undefined && req.params === undefined) {
        const d = decideDirect(input);
        if (d.direct) return { kind: 'carrier', request: { ...req, command: { line: d.command } } };
      }
      const storage = opts.storage();
      if (storage === null) throw new Error('the shell worker runtime is not started');
      storage.bind(ctx.threadId);
      return outcome;
    },
  };
}
