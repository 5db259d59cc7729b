// The runtime base is trusted only when private: real directory, our uid, no group/other access.
import { expect } from 'chai';
import { chmodSync, mkdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  currentHost, ensureRuntimeBase, privateDirProblem, RuntimeBaseError, runtimeBasePath, verifyRuntimeBase,
} from '../../host/runtime/runtime-base.ts';
import { privateArea, type Area } from './runtime-fixtures.ts';

describe('runtime base', () => {
  let area: Area;
  beforeEach(() => {
    area = privateArea('rtbase');
  });
  afterEach(() => area.cleanup());

  const uid = currentHost().uid;

  it('creates the base with mode 0700 and verifies it', () => {
    const dir = ensureRuntimeBase(join(area.root, 'fresh'));
    expect(statSync(dir).mode & 0o777).to.equal(0o700);
    expect(verifyRuntimeBase(dir)).to.equal(dir);
  });

  it('refuses a symlink, even to a private directory', () => {
    const real = ensureRuntimeBase(join(area.root, 'real'));
    const link = join(area.root, 'link');
    symlinkSync(real, link);
    expect(() => ensureRuntimeBase(link)).to.throw(RuntimeBaseError, /is a symlink/);
    expect(() => verifyRuntimeBase(link)).to.throw(RuntimeBaseError, /is a symlink/);
  });

  it('refuses group or other access', () => {
    const dir = join(area.root, 'open');
    mkdirSync(dir);
    chmodSync(dir, 0o750);
    expect(() => verifyRuntimeBase(dir)).to.throw(RuntimeBaseError, /group\/other access \(mode 0750\)/);
    chmodSync(dir, 0o701);
    expect(() => ensureRuntimeBase(dir)).to.throw(RuntimeBaseError, /group\/other access/);
  });

  it('refuses a directory owned by another uid', () => {
    expect(privateDirProblem(area.base, uid + 1)).to.match(/is owned by uid \d+, not \d+/);
  });

  it('refuses a missing base on the worker side and a missing parent on the router side', () => {
    expect(() => verifyRuntimeBase(join(area.root, 'absent'))).to.throw(RuntimeBaseError, /ENOENT/);
    expect(() => ensureRuntimeBase(join(area.root, 'no', 'parent'))).to.throw(RuntimeBaseError, /cannot create/);
  });

  describe('location', () => {
    const host = { uid: 1234, tmpdir: '/tmp' };
    it('uses HPATCH_RUNTIME_DIR when set (absolute only)', () => {
      expect(runtimeBasePath({ HPATCH_RUNTIME_DIR: '/x/y/' }, host)).to.equal('/x/y');
      expect(() => runtimeBasePath({ HPATCH_RUNTIME_DIR: 'rel' }, host)).to.throw(RuntimeBaseError, /absolute/);
    });
    it('uses $XDG_RUNTIME_DIR/hpatch-router only when XDG_RUNTIME_DIR is private', () => {
      expect(runtimeBasePath({ XDG_RUNTIME_DIR: area.base }, { uid, tmpdir: '/tmp' })).to.equal(join(area.base, 'hpatch-router'));
      chmodSync(area.base, 0o755);
      expect(runtimeBasePath({ XDG_RUNTIME_DIR: area.base }, { uid, tmpdir: '/tmp' })).to.equal(`/tmp/hpatch-router-${uid}`);
      expect(runtimeBasePath({ XDG_RUNTIME_DIR: 'relative' }, host)).to.equal('/tmp/hpatch-router-1234');
    });
    it('falls back to <tmpdir>/hpatch-router-<uid>', () => {
      expect(runtimeBasePath({}, host)).to.equal('/tmp/hpatch-router-1234');
    });
  });
});
