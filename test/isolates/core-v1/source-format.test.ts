import { expect } from 'chai';
import { classifySource, utf8Encode } from '../../../isolates/core-v1/index.ts';

describe('core-v1 classifySource', () => {
  const byPath: [string, string, string][] = [
    ['main.go', 'go', 'extension'],
    ['pkg/x/Server.GO', 'go', 'extension'],
    ['go.mod', 'gomod', 'basename'],
    ['sub/go.work', 'gomod', 'basename'],
    ['go.sum', 'text', 'default'],
    ['a.ts', 'typescript', 'extension'],
    ['types.d.ts', 'typescript', 'extension'],
    ['x.tsx', 'typescript', 'extension'],
    ['a.mjs', 'javascript', 'extension'],
    ['a.py', 'python', 'extension'],
    ['lib.rs', 'rust', 'extension'],
    ['run.sh', 'shell', 'extension'],
    ['/home/u/.bashrc', 'shell', 'basename'],
    ['README.md', 'markdown', 'extension'],
    ['package.json', 'json', 'extension'],
    ['ci.yml', 'yaml', 'extension'],
    ['Cargo.toml', 'toml', 'extension'],
    ['Cargo.lock', 'toml', 'basename'],
    ['x.h', 'c', 'extension'],
    ['x.hpp', 'cpp', 'extension'],
    ['Main.java', 'java', 'extension'],
    ['Makefile', 'makefile', 'basename'],
    ['GNUmakefile', 'makefile', 'basename'],
    ['rules.mk', 'makefile', 'extension'],
    ['Dockerfile', 'dockerfile', 'basename'],
    ['Dockerfile.dev', 'dockerfile', 'basename'],
    ['C:\\src\\Containerfile', 'dockerfile', 'basename'],
    ['grammar.lark', 'lark', 'extension'],
    ['notes.txt', 'text', 'extension'],
    ['LICENSE', 'text', 'default'],
    ['.gitignore', 'text', 'default'],
    ['archive.tar.gz', 'binary', 'extension'],
    ['logo.PNG', 'binary', 'extension'],
    ['', 'text', 'default'],
  ];
  for (const [path, format, basis] of byPath) {
    it(`${JSON.stringify(path)} → ${format} (${basis})`, () => {
      const c = classifySource(path);
      expect(c.format).to.equal(format);
      expect(c.basis).to.equal(basis);
      expect(c.hread).to.equal(format !== 'binary');
      expect(c.hpatch).to.equal(format !== 'binary');
      expect(c.hsymbol).to.equal(['go', 'typescript', 'javascript', 'python', 'rust'].includes(format));
    });
  }

  it('binary content: NUL or invalid UTF-8 in a byte sample, NUL or a lone surrogate in a string sample', () => {
    const binary = { format: 'binary', hread: false, hpatch: false, hsymbol: false, basis: 'content' };
    expect(classifySource('main.go', Uint8Array.from([0x70, 0x00, 0x71]))).to.deep.equal(binary);
    expect(classifySource('main.go', Uint8Array.from([0x70, 0xff]))).to.deep.equal(binary);
    expect(classifySource('main.go', 'a\0b')).to.deep.equal(binary);
    expect(classifySource('main.go', 'a\ud800b')).to.deep.equal(binary);
    expect(classifySource('main.go', 'package main\n')).to.deep.equal({ format: 'go', hread: true, hpatch: true, hsymbol: true, basis: 'extension' });
  });

  it('a truncated sample may end inside a code point only when samplePrefix is set', () => {
    const cut = utf8Encode('package main // é').subarray(0, 17);
    expect(classifySource('main.go', cut).format).to.equal('binary');
    expect(classifySource('main.go', cut, { samplePrefix: true }).format).to.equal('go');
    // An invalid byte is binary even in a prefix.
    expect(classifySource('main.go', Uint8Array.from([0x61, 0xc3, 0x28]), { samplePrefix: true }).format).to.equal('binary');
  });

  it('valid text content overrides a binary extension', () => {
    expect(classifySource('data.bin', 'hello\n').format).to.equal('text');
    expect(classifySource('data.db', 'hello\n')).to.include({ format: 'text', basis: 'content', hread: true });
  });

  it('a shebang decides only when no name rule matched', () => {
    const table: [string, string][] = [
      ['#!/bin/sh\necho', 'shell'],
      ['#!/usr/bin/env bash\n', 'shell'],
      ['  #!/usr/bin/env -S python3 -u\n', 'python'],
      ['#!/usr/bin/python3.12\n', 'python'],
      ['#!/usr/bin/env node\n', 'javascript'],
      ['#!/usr/bin/env -S deno run\n', 'typescript'],
      ['#!/usr/bin/ruby\r\n', 'ruby'],
      ['#!/usr/bin/perl\n', 'text'],
      ['#!\n', 'text'],
      ['echo hi\n', 'text'],
    ];
    for (const [sample, format] of table) expect(classifySource('bin/tool', sample).format, sample).to.equal(format);
    expect(classifySource('notes.txt', '#!/bin/sh\n').format).to.equal('text');
    expect(classifySource('tool', utf8Encode('#!/bin/bash\n')).basis).to.equal('content');
  });

  it('is deterministic and returns fresh objects', () => {
    const a = classifySource('x.go');
    const b = classifySource('x.go');
    expect(a).to.deep.equal(b);
    expect(a).not.to.equal(b);
  });
});
