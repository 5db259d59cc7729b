// The built-in `hpatch` tool (brief §10): a custom tool with a Lark grammar that supersedes Codex's
// apply_patch in both shapes. Translation verifies and plans the patch (plan-patch.ts) and hands Codex
// the rendered apply_patch text; the model reads the router's report (call-reply.ts) either way.
import { grammarProblems } from '../plugins/grammar/index.ts';
import type { Contribution, CustomToolSpec, TranslateContext, TranslateOutcome } from '../registry/contribution.ts';
import type { ShellThreadStorage } from '../shell/thread-storage.ts';
import { HPATCH_GRAMMAR } from './patch-grammar.ts';
import { planPatch } from './plan-patch.ts';
import { readWorkspaceFile } from './workspace-files.ts';

export const HPATCH_TOOL = 'hpatch';

export const HPATCH_DESCRIPTION = `Edits files by verified anchors. First read rows with \`hread PATH [RANGE]\`, \`hgrep PATTERN [PATH…]\` or \`hsymbol NAME [PATH…]\` in a \`shell\` bash body: each row is \`LINE:HASH|text\`, and \`LINE:HASH\` is its anchor. Every anchor of every file is checked against the file's current bytes before anything is written; if one does not hold, nothing is written and you get the current rows around it. On success you get fresh rows around each change and each file's new tag: chain the next edit from those rows without re-reading. This is a FREEFORM tool: send the patch itself, not JSON.

*** Begin Patch
*** Update File: src/app.ts
*** Tag: 5b0c11e2
@@ replace 12:ab3f-14:09cd
+new text for lines 12 to 14 (any number of lines)
@@ insert after 20:5e1a
+a line below line 20
@@ insert before 3:77c0
+a line above line 3
@@ delete 30:c4d2-31:0b9e
@@ insert at end
+a last line
*** Add File: docs/notes.md
+# Notes
*** Delete File: old.txt
*** Update File: a.txt
*** Move to: b.txt
*** End Patch

Rules: a range A-B is inclusive; "replace 7:1c2d" replaces one line. "+" lines are the new text only, never with a LINE:HASH| prefix, and take the file's line ends. Hunks of one file must not overlap; a hunk that changes nothing is refused. Anchors may come from the file as you read it or from an earlier hpatch report in this conversation. "*** Tag: T" (optional) names the tag printed with the rows you used (hread's header, or the file's line in an hpatch report): then the whole version is verified, every line inside a range included, and anchors are read in that version only. Paths are relative to the working directory (or absolute) and must be inside the workspace.`;

export interface HpatchOptions {
  /** The shell tool's per-thread storage (retained scripts), once the executor side is up. */
  readonly storage?: () => ShellThreadStorage | null;
}

export function hpatchContribution(opts: HpatchOptions = {}): Contribution {
  const spec: CustomToolSpec = {
    type: 'custom',
    name: HPATCH_TOOL,
    description: HPATCH_DESCRIPTION,
    format: { type: 'grammar', syntax: 'lark', definition: HPATCH_GRAMMAR },
  };
  // Validated like any plugin grammar: a broken built-in grammar must stop the router at startup.
  const problems = grammarProblems(spec.format as { type: 'grammar'; syntax: 'lark'; definition: string });
  if (problems.length > 0) throw new Error(`built-in hpatch grammar is invalid: ${problems.map((p) => `${p.line}:${p.column} ${p.message}`).join('; ')}`);
  return {
    name: HPATCH_TOOL,
    source: { kind: 'builtin' },
    supersedes: { applyPatch: true },
    toolSpec: () => spec,
    async translate(input: string, ctx: TranslateContext): Promise<TranslateOutcome> {
      const workspace = ctx.workspace ?? null;
      const storage = opts.storage?.() ?? null;
      const plan = planPatch({
        text: input,
        workspace,
        history: ctx.thread?.editedFiles() ?? [],
        read: (abs) => readWorkspaceFile(workspace!, abs),
        ...(storage ? { readScript: (id: string) => storage.read(ctx.threadId, id) } : {}),
      });
      if (!plan.ok) return { kind: 'diagnostic', message: plan.refusal, verbatim: true };
      const reply = { kind: 'edit', report: plan.report, failure: plan.failure, files: plan.files } as const;
      if (plan.target === 'codex') return { kind: 'carrier', request: { kind: 'apply_patch', patch: plan.patch }, reply };
      // Retained scripts are the router's own storage: it writes them (compare-and-swap against
      // the verified bytes); the carrier only shows Codex's user what happened.
      for (const w of plan.writes) {
        const why = storage!.rewrite(ctx.threadId, w.id, w.expected, w.content);
        if (why !== null) return { kind: 'diagnostic', message: `hpatch: patch refused, nothing more was written: ${why}`, verbatim: true };
      }
      const refs = plan.writes.map((w) => `@shell/${w.id}`).join(' ');
      return {
        kind: 'carrier',
        request: { kind: 'exec', command: { argv: ['printf', '%s\\n', `hpatch: edited retained ${refs}`] } },
        reply: { ...reply, by: 'router' },
      };
    },
  };
}
