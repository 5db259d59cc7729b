// Discovery and the plugin directory location, on real directories (REQ-PLUGIN-001 paragraph 1).
import { expect } from 'chai';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ConfigDirError, pluginDirectory, userConfigDir } from '../../host/plugins/config-dir.ts';
import { discoverPlugins } from '../../host/plugins/discovery.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('plugin directory (mirrors Go os.UserConfigDir)', () => {
  it('Linux and BSD: an absolute XDG_CONFIG_HOME, else $HOME/.config', () => {
    expect(userConfigDir({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/u' }, 'linux')).to.equal('/x/cfg');
    expect(userConfigDir({ XDG_CONFIG_HOME: 'relative/cfg', HOME: '/home/u' }, 'linux')).to.equal('/home/u/.config');
    expect(userConfigDir({ XDG_CONFIG_HOME: '', HOME: '/home/u' }, 'freebsd')).to.equal('/home/u/.config');
    expect(() => userConfigDir({}, 'linux')).to.throw(ConfigDirError, 'HOME');
    expect(pluginDirectory({ XDG_CONFIG_HOME: '/x/cfg' }, 'linux')).to.equal('/x/cfg/hpatch/plugins');
  });

  it('macOS: ~/Library/Application Support, ignoring XDG_CONFIG_HOME', () => {
    expect(pluginDirectory({ HOME: '/Users/u', XDG_CONFIG_HOME: '/x' }, 'darwin')).to.equal('/Users/u/Library/Application Support/hpatch/plugins');
    expect(() => userConfigDir({}, 'darwin')).to.throw(ConfigDirError);
  });

  it('Windows: %APPDATA%, an error when unset', () => {
    expect(pluginDirectory({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32')).to.equal('C:\\Users\\u\\AppData\\Roaming\\hpatch\\plugins');
    expect(() => userConfigDir({ HOME: '/home/u' }, 'win32')).to.throw(ConfigDirError, 'APPDATA');
  });

  it('reads the environment it is given on every call', () => {
    const env: Record<string, string> = { HOME: '/a' };
    expect(pluginDirectory(env, 'linux')).to.equal('/a/.config/hpatch/plugins');
    env['HOME'] = '/b';
    expect(pluginDirectory(env, 'linux')).to.equal('/b/.config/hpatch/plugins');
  });
});

describe('plugin discovery', () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => (tmp = tempDir('discovery')));
  afterEach(() => tmp.cleanup());

  it('a missing or empty directory contributes nothing', async () => {
    expect(await discoverPlugins(join(tmp.dir, 'missing'))).to.deep.equal({ ok: true, declarations: [], skipped: [] });
    expect(await discoverPlugins(tmp.dir)).to.deep.equal({ ok: true, declarations: [], skipped: [] });
  });

  it('takes direct regular .js/.mjs files in code-unit order; directories, symlinks, FIFOs and other names are not declarations', async () => {
    const d = tmp.dir;
    for (const name of ['b.mjs', 'B.js', 'a.mjs', 'é.mjs', 'z.js', 'notes.txt', 'x.cjs', 'y.ts', 'm.MJS', 'c.mjs.bak']) writeFileSync(join(d, name), `// ${name}\n`);
    mkdirSync(join(d, 'dir.mjs'));
    writeFileSync(join(d, 'dir.mjs', 'inner.mjs'), '// nested\n');
    symlinkSync(join(d, 'a.mjs'), join(d, 'link.mjs'));
    symlinkSync(join(d, 'missing-target.mjs'), join(d, 'dangling.mjs'));
    execFileSync('mkfifo', [join(d, 'fifo.mjs')]);
    const r = await discoverPlugins(d);
    if (!r.ok) expect.fail(JSON.stringify(r.problems));
    // 'B' (0x42) < 'a' (0x61) < 'é' (0xe9): code units, not locale collation.
    expect(r.declarations.map((x) => x.file)).to.deep.equal(['B.js', 'a.mjs', 'b.mjs', 'z.js', 'é.mjs'].map((n) => join(d, n)));
    expect(r.declarations.map((x) => x.source)).to.deep.equal(['// B.js\n', '// a.mjs\n', '// b.mjs\n', '// z.js\n', '// é.mjs\n']);
    expect(r.skipped).to.deep.equal([
      { name: 'dangling.mjs', kind: 'symlink' },
      { name: 'dir.mjs', kind: 'directory' },
      { name: 'fifo.mjs', kind: 'other' },
      { name: 'link.mjs', kind: 'symlink' },
    ]);
  });

  it('a plugin directory that is a file, or unreadable, is a startup problem', async () => {
    const file = join(tmp.dir, 'plugins');
    writeFileSync(file, '');
    const r = await discoverPlugins(file);
    expect(r).to.deep.equal({ ok: false, problems: [{ file, message: 'plugin directory exists but is not a directory' }] });

    if (process.getuid?.() === 0) return; // root reads through permissions
    const locked = join(tmp.dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o000);
    try {
      const u = await discoverPlugins(locked);
      expect(u.ok).to.equal(false);
      if (!u.ok) expect(u.problems[0]!.message).to.contain('EACCES');
    } finally {
      chmodSync(locked, 0o700);
    }
  });

  it('a declaration that is not UTF-8 is a problem of that file', async () => {
    writeFileSync(join(tmp.dir, 'a.mjs'), Buffer.from([0x2f, 0x2f, 0xff, 0x0a]));
    writeFileSync(join(tmp.dir, 'b.mjs'), '// fine\n');
    const r = await discoverPlugins(tmp.dir);
    expect(r).to.deep.equal({ ok: false, problems: [{ file: join(tmp.dir, 'a.mjs'), message: 'is not valid UTF-8' }] });
  });
});
