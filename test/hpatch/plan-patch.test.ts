// planPatch on real files, with Codex's own applier (the pinned codex binary) applying what it
// renders: every planned edit must leave exactly the bytes its report's tag promises.
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentTag, rowHash } from '../../isolates/core-v1/rows.ts';
import type { EditedFile } from '../../host/history/call-reply.ts';
import { planPatch, type Plan } from '../../host/hpatch/plan-patch.ts';
import { readWorkspaceFile } from '../../host/hpatch/workspace-files.ts';
import { codexApply } from '../support/codex-applier.ts';

const patch = (body: string): string => `*** Begin Patch\n${body}*** End Patch\n`;

describe('hpatch plan (verify, apply in memory, render for Codex)', function () {
  this.timeout(20000);
  let dir: string;
  let history: EditedFile[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hpatch-plan-'));
    history = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ws = (): { cwd: string; roots: string[] } => ({ cwd: dir, roots: [dir] });
  const plan = (text: string): Plan => planPatch({ text, workspace: ws(), history, read: (abs) => readWorkspaceFile(ws(), abs) });
  /** The anchor of line `n` of `file` as it is now. */
  const anchor = (file: string, n: number): string => {
    const text = readFileSync(join(dir, file), 'utf8').split('\n').map((l) => l.replace(/\r$/, ''));
    return `${n}:${rowHash(text[n - 1]!)}`;
  };
  /** Plans, has Codex apply it, and checks every file's bytes against the tag the report promises. */
  const applyOk = (text: string): Extract<Plan, { target: 'codex' }> => {
    const p = plan(text);
    if (!p.ok) throw new Error(p.refusal);
    if (p.target !== 'codex') throw new Error('not a Codex patch');
    const r = codexApply(p.patch, dir);
    expect(r.status, r.output).to.equal(0);
    for (const f of p.files) {
      if (f.after === null) expect(existsSync(f.path)).to.equal(false);
      else expect(contentTag(readFileSync(f.path)), f.path).to.equal(f.after);
    }
    history.push(...p.files);
    return p;
  };
  const refused = (text: string, why: RegExp): string => {
    const p = plan(text);
    expect(p.ok).to.equal(false);
    if (p.ok) return '';
    expect(p.refusal).to.match(/^hpatch: patch refused, nothing was written: /);
    expect(p.refusal).to.match(why);
    return p.refusal;
  };
  const bytes = (f: string): string => readFileSync(join(dir, f), 'latin1');

  it('replaces, inserts and deletes in one file; the report shows fresh rows and the new tag', () => {
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\nfour\nfive\n');
    const p = applyOk(patch(`*** Update File: a.txt\n@@ replace ${anchor('a.txt', 2)}\n+TWO\n@@ insert after ${anchor('a.txt', 3)}\n+3.5\n@@ delete ${anchor('a.txt', 5)}\n`));
    expect(bytes('a.txt')).to.equal('one\nTWO\nthree\n3.5\nfour\n');
    expect(p.report).to.contain(`*** a.txt: 5 lines, tag ${contentTag('one\nTWO\nthree\n3.5\nfour\n')}`);
    expect(p.report).to.contain(`2:${rowHash('TWO')}|TWO`).and.to.contain(`4:${rowHash('3.5')}|3.5`);
  });

  it('CRLF files stay CRLF; a file without a final newline gets one (and the report says so)', () => {
    writeFileSync(join(dir, 'c.txt'), 'a\r\nb\r\nc');
    const p = applyOk(patch(`*** Update File: c.txt\n@@ replace ${anchor('c.txt', 2)}\n+B\n+B2\n@@ insert after ${anchor('c.txt', 3)}\n+d\n`));
    expect(bytes('c.txt')).to.equal('a\r\nB\r\nB2\r\nc\r\nd\r\n');
    expect(p.report).to.match(/note: c.txt had no final newline/);
  });

  it('mixed line ends: new lines take the first line\'s, kept lines keep theirs', () => {
    writeFileSync(join(dir, 'm.txt'), 'a\nb\r\nc\r\n');
    applyOk(patch(`*** Update File: m.txt\n@@ insert before ${anchor('m.txt', 3)}\n+x\n`));
    expect(bytes('m.txt')).to.equal('a\nb\r\nx\nc\r\n');
  });

  it('a BOM, an empty file, a one-line file, inserts at both ends', () => {
    writeFileSync(join(dir, 'bom.txt'), '\uFEFFfirst\nsecond\n');
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'one.txt'), 'only');
    applyOk(patch(
      `*** Update File: bom.txt\n@@ replace ${anchor('bom.txt', 1)}\n+\uFEFFFIRST\n@@ insert at end\n+third\n` +
      '*** Update File: empty.txt\n@@ insert at end\n+x\n' +
      `*** Update File: one.txt\n@@ insert at start\n+zero\n@@ insert after ${anchor('one.txt', 1)}\n+two\n`));
    expect(readFileSync(join(dir, 'bom.txt'), 'utf8')).to.equal('\uFEFFFIRST\nsecond\nthird\n');
    expect(bytes('empty.txt')).to.equal('x\n');
    expect(bytes('one.txt')).to.equal('zero\nonly\ntwo\n');
  });

  it('deleting every line leaves an empty file', () => {
    writeFileSync(join(dir, 'd.txt'), 'x\ny\n');
    applyOk(patch(`*** Update File: d.txt\n@@ delete ${anchor('d.txt', 1)}-${anchor('d.txt', 2)}\n`));
    expect(bytes('d.txt')).to.equal('');
  });

  it('duplicate blocks: the hunk carries enough context that Codex cannot land it on the other copy', () => {
    const block = ['function f() {', '  return 1;', '}', ''];
    const text = [...block, ...block, ...block, 'end'].join('\n') + '\n';
    writeFileSync(join(dir, 'dup.js'), text);
    const p = applyOk(patch(`*** Update File: dup.js\n@@ replace ${anchor('dup.js', 6)}\n+  return 2;\n`));
    expect(bytes('dup.js')).to.equal([...block, 'function f() {', '  return 2;', '}', '', ...block, 'end'].join('\n') + '\n');
    // The hunk's old side (context and removed lines) occurs once in the file, even trimmed.
    const old = p.patch.split('\n').filter((l) => l.startsWith(' ') || l.startsWith('-')).map((l) => l.slice(1).trim());
    const file = text.split('\n').map((l) => l.trim());
    const at = file.map((_, i) => i).filter((i) => old.every((l, k) => file[i + k] === l));
    expect(at).to.deep.equal([2]);
  });

  it('moves (with and without edits), adds into new directories, deletes', () => {
    writeFileSync(join(dir, 'a.txt'), 'a\nb\n');
    writeFileSync(join(dir, 'b.txt'), 'keep\n');
    writeFileSync(join(dir, 'gone.txt'), 'bye\n');
    applyOk(patch(`*** Update File: a.txt\n*** Move to: sub/a2.txt\n@@ replace ${anchor('a.txt', 2)}\n+B\n*** Update File: b.txt\n*** Move to: b2.txt\n` +
      '*** Add File: new/dir/n.txt\n+hello\n*** Delete File: gone.txt\n'));
    expect(bytes('sub/a2.txt')).to.equal('a\nB\n');
    expect(bytes('b2.txt')).to.equal('keep\n');
    expect(bytes('new/dir/n.txt')).to.equal('hello\n');
    expect(existsSync(join(dir, 'a.txt')) || existsSync(join(dir, 'b.txt')) || existsSync(join(dir, 'gone.txt'))).to.equal(false);
  });

  it('refuses overlapping hunks, no-ops, inserts that repeat their anchor, and unsafe file operations', () => {
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    const [a1, a2, a3] = [1, 2, 3].map((n) => anchor('a.txt', n));
    refused(patch(`*** Update File: a.txt\n@@ replace ${a1}-${a2}\n+x\n@@ delete ${a2}\n`), /overlap/);
    refused(patch(`*** Update File: a.txt\n@@ insert after ${a1}\n+x\n@@ insert before ${a2}\n+y\n`), /overlap/);
    refused(patch(`*** Update File: a.txt\n@@ replace ${a2}\n+two\n`), /changes nothing.*no-op/);
    refused(patch(`*** Update File: a.txt\n@@ insert after ${a3}\n+three\n+four\n`), /repeats line 3/);
    refused(patch('*** Add File: b.txt\n+x\n'), /already exists/);
    refused(patch('*** Delete File: nope.txt\n'), /does not exist/);
    refused(patch('*** Update File: b.txt\n*** Move to: a.txt\n'), /already exists; hpatch does not move over a file/);
    refused(patch(`*** Update File: a.txt\n@@ delete ${a1}\n*** Update File: ./a.txt\n@@ delete ${a2}\n`), /named twice/);
    expect(bytes('a.txt')).to.equal('one\ntwo\nthree\n');
  });

  it('one stale anchor refuses the whole multi-file patch, with the current rows around it', () => {
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
    writeFileSync(join(dir, 'b.txt'), 'x\ny\nz\n');
    const a2 = anchor('a.txt', 2);
    const b2 = anchor('b.txt', 2);
    writeFileSync(join(dir, 'b.txt'), 'x\nY\nz\n'); // edited behind the model's back
    const why = refused(patch(`*** Update File: a.txt\n@@ replace ${a2}\n+TWO\n*** Update File: b.txt\n@@ replace ${b2}\n+why\n`), /1 anchor does not hold/);
    expect(why).to.contain(`b.txt: anchor ${b2} of "@@ replace ${b2}" does not hold: line 2 is now 2:${rowHash('Y')}|Y`);
    expect(why).to.contain(`1:${rowHash('x')}|x\n2:${rowHash('Y')}|Y\n3:${rowHash('z')}|z`);
    expect(why).to.match(/nothing was relocated/);
  });

  it('recovery ancestry: anchors read before 1–5 of this thread\'s own edits are carried to the current lines', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    writeFileSync(join(dir, 'f.txt'), lines.join('\n') + '\n');
    const original = Array.from({ length: 40 }, (_, i) => `${i + 1}:${rowHash(lines[i]!)}`);
    for (let k = 1; k <= 5; k++) {
      // Own edit k inserts two lines at the top: every original anchor is now stale by 2k lines.
      applyOk(patch(`*** Update File: f.txt\n@@ insert at start\n+own ${k}a\n+own ${k}b\n`));
      const n = 10 + k * 5; // an original line read before all of these edits
      const p = applyOk(patch(`*** Update File: f.txt\n@@ replace ${original[n - 1]}\n+LINE ${n}\n`));
      expect(p.report).to.match(/rebased: "@@ replace .*" in f.txt was read from tag/);
      // Own edits of that call moved nothing else: later original anchors are still reachable.
      expect(readFileSync(join(dir, 'f.txt'), 'utf8').split('\n')).to.include(`LINE ${n}`);
    }
    const final = readFileSync(join(dir, 'f.txt'), 'utf8').split('\n');
    expect(final.filter((l) => l.startsWith('LINE '))).to.deep.equal(['LINE 15', 'LINE 20', 'LINE 25', 'LINE 30', 'LINE 35']);
    expect(final.indexOf('LINE 15')).to.equal(14 + 10); // 5 own inserts of 2 lines each above it
  });

  it('recovery ancestry never crosses an external edit, and never follows a line an own edit changed', () => {
    writeFileSync(join(dir, 'f.txt'), 'a\nb\nc\nd\n');
    const [a1, a2, , a4] = [1, 2, 3, 4].map((n) => anchor('f.txt', n));
    applyOk(patch('*** Update File: f.txt\n@@ insert at start\n+top\n'));
    // The line the own edit replaced is gone: its old anchor is stale even through ancestry.
    applyOk(patch(`*** Update File: f.txt\n@@ replace ${anchor('f.txt', 3)}\n+B\n`));
    refused(patch(`*** Update File: f.txt\n@@ replace ${a2}\n+b2\n`), /does not hold/);
    // A range read before an own insert inside it no longer names what the model saw.
    writeFileSync(join(dir, 'g.txt'), '1\n2\n3\n4\n');
    const [g1, , , g4] = [1, 2, 3, 4].map((n) => anchor('g.txt', n));
    applyOk(patch(`*** Update File: g.txt\n@@ insert after ${anchor('g.txt', 2)}\n+2.5\n`));
    refused(patch(`*** Update File: g.txt\n@@ delete ${g1}-${g4}\n`), /does not hold/);
    // After an external edit the chain is broken: the old anchors are refused.
    writeFileSync(join(dir, 'f.txt'), `${readFileSync(join(dir, 'f.txt'), 'utf8')}external\n`);
    refused(patch(`*** Update File: f.txt\n@@ replace ${a4}\n+D\n`), /does not hold/);
    refused(patch(`*** Update File: f.txt\n@@ replace ${a1}\n+A\n`), /does not hold/);
  });

  it('an anchor that holds in two versions this thread saw, at different lines now, is ambiguous: refused, never picked', () => {
    // (found by the edit-safety corpus: blank lines hold at one number in the original and after an own insert)
    writeFileSync(join(dir, 'f.txt'), 'one\n\ntwo\nthree\n\nfour\n');
    const original = readFileSync(join(dir, 'f.txt'));
    const blank5 = `5:${rowHash('')}`;
    applyOk(patch(`*** Update File: f.txt\n@@ insert after ${anchor('f.txt', 1)}\n+x\n+y\n+z\n`));
    applyOk(patch(`*** Update File: f.txt\n@@ insert after ${anchor('f.txt', 1)}\n+w\n`));
    const why = refused(patch(`*** Update File: f.txt\n@@ insert before ${blank5}\n+NEW\n`), /is ambiguous: its anchors hold in more than one version/);
    expect(why).to.contain('*** Tag: T');
    // Naming the version the rows came from places it exactly.
    applyOk(patch(`*** Update File: f.txt\n*** Tag: ${contentTag(original)}\n@@ insert before ${blank5}\n+NEW\n`));
    expect(bytes('f.txt')).to.equal('one\nw\nx\ny\nz\n\ntwo\nthree\nNEW\n\nfour\n');
    // A tag that is neither current nor one of the thread's own versions: the file changed since.
    refused(patch(`*** Update File: f.txt\n*** Tag: 00000000\n@@ delete ${anchor('f.txt', 1)}\n`), /tag 00000000 is neither the file's current tag/);
    // The current tag confines the anchors to the current rows (no ancestry).
    const now = contentTag(readFileSync(join(dir, 'f.txt')));
    refused(patch(`*** Update File: f.txt\n*** Tag: ${now}\n@@ delete 3:${rowHash('two')}\n`), /does not hold/);
    applyOk(patch(`*** Update File: f.txt\n*** Tag: ${now}\n@@ delete ${anchor('f.txt', 7)}\n`));
    expect(bytes('f.txt')).to.equal('one\nw\nx\ny\nz\n\nthree\nNEW\n\nfour\n');
  });

  describe('read confinement', () => {
    it('refuses paths outside the workspace: .., absolute paths, symlinks out and symlinked directories', () => {
      const outside = mkdtempSync(join(tmpdir(), 'hpatch-outside-'));
      try {
        writeFileSync(join(outside, 'secret.txt'), 'secret\n');
        mkdirSync(join(dir, 'sub'));
        symlinkSync(join(outside, 'secret.txt'), join(dir, 'link.txt'));
        symlinkSync(outside, join(dir, 'sub', 'out'));
        const h = `1:${rowHash('secret')}`;
        refused(patch(`*** Update File: ../${outside.split('/').pop()}/secret.txt\n@@ replace ${h}\n+x\n`), /is outside the workspace/);
        refused(patch(`*** Update File: ${outside}/secret.txt\n@@ replace ${h}\n+x\n`), /is outside the workspace/);
        refused(patch(`*** Update File: sub/../../x.txt\n@@ replace ${h}\n+x\n`), /is outside the workspace/);
        refused(patch(`*** Update File: link.txt\n@@ replace ${h}\n+x\n`), /is a symlink or not a regular file/);
        refused(patch(`*** Update File: sub/out/secret.txt\n@@ replace ${h}\n+x\n`), /sub\/out is a symlink or not a directory/);
        refused(patch('*** Add File: sub/out/new.txt\n+x\n'), /sub\/out is a symlink/);
        refused(patch('*** Delete File: link.txt\n'), /is a symlink/);
        refused(patch(`*** Update File: ${dir}\n@@ replace ${h}\n+x\n`), /is outside the workspace/);
        expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).to.equal('secret\n');
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    });

    it('a file swapped for a symlink between verification and application: Codex\'s applier finds other bytes and writes nothing outside', () => {
      const outside = mkdtempSync(join(tmpdir(), 'hpatch-outside-'));
      try {
        writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
        writeFileSync(join(outside, 'target.txt'), 'other\ncontent\n');
        const p = plan(patch(`*** Update File: a.txt\n@@ replace ${anchor('a.txt', 2)}\n+TWO\n`));
        if (!p.ok || p.target !== 'codex') throw new Error('not planned');
        rmSync(join(dir, 'a.txt'));
        symlinkSync(join(outside, 'target.txt'), join(dir, 'a.txt'));
        const r = codexApply(p.patch, dir);
        expect(r.status).to.not.equal(0);
        expect(readFileSync(join(outside, 'target.txt'), 'utf8')).to.equal('other\ncontent\n');
        // The next hpatch sees the symlink and refuses it.
        refused(patch(`*** Update File: a.txt\n@@ delete 1:${rowHash('other')}\n`), /is a symlink/);
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    });

    it('refuses binary and non-UTF-8 files and a request without an environment context', () => {
      writeFileSync(join(dir, 'bin'), Buffer.from([0x61, 0, 0x62, 0x0a]));
      writeFileSync(join(dir, 'latin1'), Buffer.from([0x61, 0xe9, 0x0a]));
      refused(patch(`*** Update File: bin\n@@ delete 1:${rowHash('a')}\n`), /not UTF-8 text \(a NUL byte at offset 1\)/);
      refused(patch(`*** Update File: latin1\n@@ delete 1:${rowHash('a')}\n`), /not UTF-8 text \(bytes that are not UTF-8 at offset 1\)/);
      const p = planPatch({ text: patch('*** Delete File: x\n'), workspace: null, history: [], read: () => ({ kind: 'missing' }) });
      expect(p.ok === false && p.refusal).to.match(/no environment context/);
    });
  });
});
