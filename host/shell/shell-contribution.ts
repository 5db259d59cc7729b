// The built-in `shell` tool as a registry Contribution (REQ-SHELL-001). The declaration in
// plugins/shell.mjs runs in its isolate like any plugin and answers the worker argv
// (`shell <interpreter fields> <exact body>`, template, params) or a rejection; around it the router
// adds what needs the host:
//   - the Code Mode description gets the request's sanitized `#!params` shape (acceptance 13);
//   - an implicit-Bash body without directives that is one simple external call becomes the direct
//     carrier (acceptance 7, direct-carrier.ts);
//   - Code Mode JavaScript submitted as shell input has its command recovered, and wrapped scripts
//     (`python3 -c`, heredocs into interpreters) in a Bash body draw warnings (acceptance 16);
//   - each call's script is retained as `@shell/<call id>` (`retained`/`script_ref` notes reach the
//     model with its output), and a sole `#!script=@shell/<id>` line reruns a retained script;
//   - before a worker carrier leaves, the thread's `.runtime` link is bound to this router's shell
//     wrapper (thread-storage.ts), so the installed locator finds it.
import { CarrierInputError } from '../carriers/carrier-errors.ts';
import type { ExecRequest } from '../carriers/exec-request.ts';
import { renderExecCarrier } from '../carriers/exec-wrapper.ts';
import type { Contribution, CustomToolSpec, ToolSpecContext, TranslateContext, TranslateOutcome } from '../registry/contribution.ts';
import { parseShellInput, type ShellInput } from '../../isolates/core-v1/shell-header.ts';
import { interpreterIdentity } from '../../isolates/core-v1/interpreter.ts';
import { recoverCodeModeCommand, RECOVERY_WARNING } from './code-mode-recovery.ts';
import { decideDirect } from './direct-carrier.ts';
import { shellWarnings } from './warnings.ts';
import type { ShellThreadStorage } from './thread-storage.ts';

export const SHELL_TOOL = 'shell';

export interface ShellContributionOptions {
  /** The declaration's tool as loaded through the plugin host (pluginContribution of plugins/shell.mjs). */
  readonly declared: Contribution;
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
      const storage = opts.storage();
      const resolved = resolveSource(input, ctx, storage);
      if ('diagnostic' in resolved) return { kind: 'diagnostic', message: resolved.diagnostic };
      const { source, recoveredParams } = resolved;
      const warnings = [...resolved.warnings];
      const outcome = await declared.translate(source, ctx);
      if (outcome.kind !== 'carrier') return outcome;
      const declaredReq = outcome.request;
      if (declaredReq.kind !== 'exec') throw new Error('the shell declaration asked for a carrier other than exec');
      const argv = 'argv' in declaredReq.command ? declaredReq.command.argv : null;
      let req: ExecRequest = recoveredParams === undefined ? declaredReq : { ...declaredReq, params: { ...recoveredParams, ...declaredReq.params } };
      // The whole input is the body exactly when no shebang or directive line was removed.
      let direct = false;
      if (argv !== null && argv.length === 3 && argv[1] === 'bash' && argv[2] === source && req.template === undefined && req.params === undefined) {
        const d = decideDirect(source);
        if (d.direct) { req = { ...req, command: { line: d.command } }; direct = true; }
      }
      // Nothing is written until the call is sure to leave as a carrier: first the exec wrapper's
      // verdict (a command too long once quoted is the model's diagnostic), then the thread's
      // `.runtime` binding for a worker carrier, and only then the retained script.
      try {
        renderExecCarrier(req, ctx.carriers);
      } catch (e) {
        if (e instanceof CarrierInputError) return { kind: 'diagnostic', message: e.message };
        throw e;
      }
      if (!direct) {
        if (storage === null) throw new Error('the shell worker runtime is not started');
        try {
          storage.bind(ctx.threadId);
        } catch (e) {
          return { kind: 'diagnostic', message: `cannot prepare this thread's shell runtime: ${e instanceof Error ? e.message : String(e)}` };
        }
      }
      // argv is `shell <interpreter fields…> <body>`: a Bash or sh body is checked for wrapped scripts.
      const identity = argv !== null && argv.length >= 3 ? interpreterIdentity(argv[1]!) : 'external';
      if (identity !== 'external') warnings.push(...shellWarnings(argv![argv!.length - 1]!, identity === 'posix'));
      return { kind: 'carrier', request: req, warnings, notes: retain(storage, ctx, source, resolved.parsed) };
    },
  };
}

/**
 * What runs: the input itself, the retained script a sole `#!script=@shell/<id>` line names (resolved
 * here: the isolate has no files), or the command recovered from Code Mode JavaScript submitted as
 * shell input (its other fields become exec_command parameters, its warning comes first).
 */
function resolveSource(input: string, ctx: TranslateContext, storage: ShellThreadStorage | null):
  | { readonly source: string; readonly parsed: ShellInput; readonly recoveredParams?: Readonly<Record<string, unknown>>; readonly warnings: readonly string[] }
  | { readonly diagnostic: string } {
  // The host's own reading of the input rules (the isolate applies the same core/v1 function).
  const header = parseShellInput(input);
  if (header.ok && header.kind === 'scriptRef') {
    if (storage === null) return { diagnostic: 'script references need the shell worker runtime' };
    const stored = storage.read(ctx.threadId, header.artifactId);
    return stored.ok ? { source: stored.content, parsed: parseShellInput(stored.content), warnings: [] } : { diagnostic: stored.error };
  }
  const recovered = recoverCodeModeCommand(input);
  if (recovered === null) return { source: input, parsed: header, warnings: [] };
  return {
    source: recovered.cmd,
    parsed: parseShellInput(recovered.cmd),
    ...(Object.keys(recovered.params).length > 0 ? { recoveredParams: recovered.params } : {}),
    warnings: [RECOVERY_WARNING],
  };
}

/**
 * Retains the call's script under its call id and says so to the model. The stored file is the
 * script as a file would hold it: the shebang line as written (none for implicit Bash) and the exact
 * body, without the per-call directives — reading it back as input gives the same interpreter and body.
 */
function retain(storage: ShellThreadStorage | null, ctx: TranslateContext, source: string, parsed: ShellInput): string[] {
  if (storage === null || !parsed.ok || parsed.kind !== 'script') return ['retained: false'];
  const shebang = parsed.interpreter.implicit ? '' : source.slice(0, lineEnd(source));
  if (!storage.retain(ctx.threadId, ctx.callId, shebang + parsed.body)) return ['retained: false'];
  return ['retained: true', `script_ref: @shell/${ctx.callId}`];
}

/** Index after the first line's terminator (or the end of the text). */
function lineEnd(text: string): number {
  const nl = text.indexOf('\n');
  return nl < 0 ? text.length : nl + 1;
}
