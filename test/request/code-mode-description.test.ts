import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import {
  EXEC_COMMAND_INTRO_CLAUSE,
  findNestedToolSection,
  nestedToolSectionCut,
  removeExecCommandIntroExample,
  removeNestedToolSection,
  sanitizeOwnerDescription,
} from '../../host/request/code-mode-description.ts';

const DIR = new URL('../../fixtures/codex/exec-descriptions/', import.meta.url);
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.exec-description.md')).sort();
const read = (name: string): string => readFileSync(new URL(name, DIR), 'utf8');

/** Cuts [start, end) ranges (non-overlapping) out of `text`. */
function cutOut(text: string, ranges: ReadonlyArray<{ start: number; end: number }>): string {
  let out = text;
  for (const r of [...ranges].sort((a, b) => b.start - a.start)) out = out.slice(0, r.start) + out.slice(r.end);
  return out;
}

function toolHeadings(text: string): string[] {
  return [...text.matchAll(/^### `([^`]+)`$/gm)].map((m) => m[1]!);
}

function introRange(text: string): { start: number; end: number } {
  const start = text.indexOf(EXEC_COMMAND_INTRO_CLAUSE);
  expect(start).to.be.greaterThan(0);
  return { start, end: start + EXEC_COMMAND_INTRO_CLAUSE.length };
}

describe('code-mode-description', () => {
  it('has every captured exec description as a fixture', () => {
    // 11 captures, 5 distinct texts (see codex-protocol/tools/INDEX.md).
    expect(FILES).to.have.length(11);
    expect(new Set(FILES.map(read)).size).to.equal(5);
  });

  for (const file of FILES) {
    describe(file, () => {
      const original = read(file);
      const hasExec = original.includes('\n### `exec_command`\n');
      const hasPatch = original.includes('\n### `apply_patch`\n');

      it('finds exactly the sections whose headings exist', () => {
        const ec = findNestedToolSection(original, 'exec_command');
        const ap = findNestedToolSection(original, 'apply_patch');
        expect(ec !== null).to.equal(hasExec);
        expect(ap !== null).to.equal(hasPatch);
        for (const s of [ec, ap]) {
          if (!s) continue;
          expect(s.text).to.equal(original.slice(s.start, s.end));
          // Each captured section ends with its declaration fence plus the blank separator line.
          expect(s.text.endsWith('\n```\n\n')).to.equal(true);
        }
      });

      it('sanitizes to the original with exactly the removed slices cut out', () => {
        const ec = findNestedToolSection(original, 'exec_command');
        const ap = findNestedToolSection(original, 'apply_patch');
        const slices = [introRange(original), ...(ec ? [ec] : []), ...(ap ? [ap] : [])];
        const r = sanitizeOwnerDescription(original, { execCommand: true, applyPatch: true });
        expect(r.text).to.equal(cutOut(original, slices));
        expect(r.introRemoved).to.equal(true);
        expect(r.removedSections).to.deep.equal([...(hasPatch ? ['apply_patch'] : []), ...(hasExec ? ['exec_command'] : [])]);
        expect(r.mentionsExecCommand).to.equal(false);
        expect(r.text).to.not.include('tools.exec_command');
        expect(r.text).to.not.include('### `exec_command`');
        expect(r.text).to.not.include('### `apply_patch`');
        // Seams look as if the section was never there.
        expect(r.text).to.not.include('\n\n\n');
        expect(r.text.endsWith(original.slice(-4))).to.equal(true);
      });

      it('leaves every other nested section byte-identical', () => {
        const r = sanitizeOwnerDescription(original, { execCommand: true, applyPatch: true });
        const others = toolHeadings(original).filter((t) => t !== 'exec_command' && t !== 'apply_patch');
        expect(toolHeadings(r.text)).to.deep.equal(others);
        for (const tool of others) {
          const before = findNestedToolSection(original, tool);
          expect(before, tool).to.not.equal(null);
          expect(findNestedToolSection(r.text, tool)?.text, tool).to.equal(before!.text);
        }
      });

      it('is idempotent', () => {
        const once = sanitizeOwnerDescription(original, { execCommand: true, applyPatch: true });
        const twice = sanitizeOwnerDescription(once.text, { execCommand: true, applyPatch: true });
        expect(twice.text).to.equal(once.text);
        expect(twice.removedSections).to.deep.equal([]);
        expect(twice.introRemoved).to.equal(false);
        expect(twice.mentionsExecCommand).to.equal(false);
      });

      it('apply_patch only leaves exec_command and the intro untouched', () => {
        const ap = findNestedToolSection(original, 'apply_patch');
        const r = sanitizeOwnerDescription(original, { execCommand: false, applyPatch: true });
        expect(r.text).to.equal(cutOut(original, ap ? [ap] : []));
        expect(r.introRemoved).to.equal(false);
        expect(r.mentionsExecCommand).to.equal(true);
        expect(findNestedToolSection(r.text, 'exec_command')?.text).to.equal(findNestedToolSection(original, 'exec_command')?.text);
      });

      it('exec_command only leaves apply_patch untouched', () => {
        const ec = findNestedToolSection(original, 'exec_command');
        const r = sanitizeOwnerDescription(original, { execCommand: true, applyPatch: false });
        expect(r.text).to.equal(cutOut(original, [introRange(original), ...(ec ? [ec] : [])]));
        expect(findNestedToolSection(r.text, 'apply_patch')?.text).to.equal(findNestedToolSection(original, 'apply_patch')?.text);
      });

      it('neither option changes nothing', () => {
        const r = sanitizeOwnerDescription(original, { execCommand: false, applyPatch: false });
        expect(r).to.deep.equal({ text: original, removedSections: [], introRemoved: false, mentionsExecCommand: true });
      });
    });
  }

  describe('captured structure', () => {
    const f2 = read('f2-tools-gpt55-code_mode_only.exec-description.md');

    it('rewrites the intro sentence so it still reads correctly', () => {
      const r = removeExecCommandIntroExample(f2);
      expect(r.removed).to.equal(true);
      expect(r.text.split('\n')[2]).to.equal(
        '- All nested tools are available on the global `tools` object. Tool names are exposed as normalized JavaScript identifiers, for example `await tools.mcp__ologs__get_profile(...)`.',
      );
    });

    it('joins the neighbours of a removed section with one blank line', () => {
      const r = sanitizeOwnerDescription(f2, { execCommand: true, applyPatch: true });
      expect(r.text).to.include('  [key: string]: unknown;\n};\n```\n\n### `create_goal`\n');
      expect(r.text).to.include('}): Promise<unknown>; };\n```\n\n### `get_goal`\n');
    });

    it('code_mode without _only (no per-tool sections) only loses the intro clause', () => {
      for (const name of ['f1-tools-gpt55-code_mode.exec-description.md', 'f4b-tools-gpt5codex-code_mode.exec-description.md']) {
        const text = read(name);
        expect(findNestedToolSection(text, 'exec_command')).to.equal(null);
        expect(removeNestedToolSection(text, 'exec_command')).to.deep.equal({ text, removed: false });
        const r = sanitizeOwnerDescription(text, { execCommand: true, applyPatch: true });
        expect(r.removedSections).to.deep.equal([]);
        expect(r.introRemoved).to.equal(true);
        expect(r.text).to.equal(text.replace(EXEC_COMMAND_INTRO_CLAUSE, ''));
      }
    });

    it('removing the last section cuts the separator before it and keeps the ending', () => {
      const ws = findNestedToolSection(f2, 'write_stdin')!;
      expect(ws.end).to.equal(f2.length);
      const r = removeNestedToolSection(f2, 'write_stdin');
      expect(r.removed).to.equal(true);
      expect(r.text).to.equal(f2.slice(0, ws.start - 2));
      expect(r.text.endsWith('\n}>; };\n```')).to.equal(true);
      // Same with a trailing newline: it stays.
      const withNl = removeNestedToolSection(f2 + '\n', 'write_stdin');
      expect(withNl.text).to.equal(f2.slice(0, ws.start - 2) + '\n');
      expect(nestedToolSectionCut(f2, 'write_stdin')).to.deep.equal({ start: ws.start - 2, end: f2.length });
    });

    it('a `## namespace` heading ends a section', () => {
      const text = read('a-default-modeldefault-gpt62sol.exec-description.md');
      const ws = findNestedToolSection(text, 'write_stdin')!;
      expect(text.slice(ws.end).startsWith('## clock\n')).to.equal(true);
      expect(removeNestedToolSection(text, 'write_stdin').text).to.include('}>; };\n```\n\n## clock\n');
      expect(findNestedToolSection(text, 'clock__curr_time')?.end).to.equal(text.length);
    });

    it('plain `###` subheadings inside a tool description do not end its section', () => {
      const text = read('f4-tools-gpt5codex-code_mode_only.exec-description.md');
      const s = findNestedToolSection(text, 'multi_agent_v1__spawn_agent')!;
      expect(s).to.not.equal(null);
      expect(s.text).to.include('\n### When to delegate vs. do the subtask yourself\n');
      expect(s.text).to.include('\n### Parallel delegation patterns\n');
      expect(text.slice(s.end).startsWith('### `multi_agent_v1__wait_agent`\n')).to.equal(true);
    });
  });

  describe('unknown structure is left unchanged', () => {
    const section = (tool: string, decl: string): string =>
      `### \`${tool}\`\nDoes things.\n\nexec tool declaration:\n\`\`\`ts\n${decl}\n\`\`\`\n`;
    const EC = section('exec_command', 'declare const tools: { exec_command(args: {\n  cmd: string;\n}): Promise<unknown>; };');
    const AP = section('apply_patch', 'declare const tools: { apply_patch(input: string): Promise<unknown>; };');

    it('removes a well-formed synthetic section', () => {
      const text = `intro\n\n${AP}\n${EC}\n### \`z\`\nz`;
      expect(removeNestedToolSection(text, 'exec_command').text).to.equal(`intro\n\n${AP}\n### \`z\`\nz`);
      expect(removeNestedToolSection(text, 'apply_patch').text).to.equal(`intro\n\n${EC}\n### \`z\`\nz`);
    });

    it('ignores headings inside code fences', () => {
      // A longer outer fence really nests the section's own ``` fences.
      const nested = `intro\n\n\`\`\`\`md\n${EC}\`\`\`\`\n`;
      expect(findNestedToolSection(nested, 'exec_command')).to.equal(null);
      expect(sanitizeOwnerDescription(nested, { execCommand: true, applyPatch: true }).text).to.equal(nested);
    });

    it('rejects a duplicated heading', () => {
      const text = `intro\n\n${EC}\n${EC}`;
      expect(findNestedToolSection(text, 'exec_command')).to.equal(null);
      expect(removeNestedToolSection(text, 'exec_command')).to.deep.equal({ text, removed: false });
    });

    it('rejects a section without a matching declaration', () => {
      const noDecl = '### `exec_command`\nRuns `await tools.exec_command(...)`.\n\n### `z`\nz';
      expect(findNestedToolSection(noDecl, 'exec_command')).to.equal(null);
      const r = sanitizeOwnerDescription(noDecl, { execCommand: true, applyPatch: true });
      expect(r).to.deep.equal({ text: noDecl, removedSections: [], introRemoved: false, mentionsExecCommand: true });
      // Declaration of another tool under the exec_command heading.
      const wrong = section('exec_command', 'declare const tools: { write_stdin(args: {}): Promise<unknown>; };');
      expect(findNestedToolSection(wrong, 'exec_command')).to.equal(null);
      // Text after the declaration fence.
      expect(findNestedToolSection(`${EC}trailing words\n`, 'exec_command')).to.equal(null);
    });

    it('keeps an intro whose wording differs', () => {
      const text = 'All nested tools are on `tools`, for example `await tools.exec_command(...)`.';
      expect(removeExecCommandIntroExample(text)).to.deep.equal({ text, removed: false });
      expect(sanitizeOwnerDescription(text, { execCommand: true, applyPatch: false }).mentionsExecCommand).to.equal(true);
    });
  });
});
