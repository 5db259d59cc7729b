// The workspace a request's commands run in, read from Codex's `<environment_context>` message
// (../codex-protocol §3.2): the turn's cwd, its workspace roots and which of them the sandbox lets
// commands read. hpatch reads files only there. Pure; the newest context in the history wins
// (Codex sends a new one only when something changed).

export interface Workspace {
  readonly cwd: string;
  /** Absolute, normalized roots hpatch may read (and Codex may be asked to write) files under. */
  readonly roots: readonly string[];
}

const CONTEXT = /<environment_context>([\s\S]*?)<\/environment_context>/g;

/** The newest environment context in `input`, or null when the request carries none. */
export function workspaceFromInput(input: readonly unknown[] | null): Workspace | null {
  if (input === null) return null;
  for (let i = input.length - 1; i >= 0; i--) {
    for (const text of messageTexts(input[i])) {
      let last: string | null = null;
      for (const m of text.matchAll(CONTEXT)) last = m[1]!;
      if (last !== null) {
        const ws = parseContext(last);
        if (ws !== null) return ws;
      }
    }
  }
  return null;
}

function messageTexts(item: unknown): string[] {
  if (typeof item !== 'object' || item === null) return [];
  const o = item as Record<string, unknown>;
  if (o['type'] !== 'message' || o['role'] !== 'user' || !Array.isArray(o['content'])) return [];
  const out: string[] = [];
  for (const part of o['content'] as unknown[]) {
    const t = (part as Record<string, unknown> | null)?.['text'];
    if (typeof t === 'string' && t.includes('<environment_context>')) out.push(t);
  }
  return out;
}

export function parseContext(body: string): Workspace | null {
  const cwd = decode(/<cwd>([^<]*)<\/cwd>/.exec(body)?.[1]);
  if (cwd === null || !cwd.startsWith('/')) return null;
  const declared = [...body.matchAll(/<workspace_roots>([\s\S]*?)<\/workspace_roots>/g)]
    .flatMap((m) => [...m[1]!.matchAll(/<root>([^<]*)<\/root>/g)].map((r) => decode(r[1])))
    .filter((r): r is string => r !== null && r.startsWith('/'));
  const candidates = (declared.length > 0 ? declared : [cwd]).map(normalize);
  const profile = /<permission_profile\b[\s\S]*?<\/permission_profile>|<permission_profile\b[^>]*\/>/.exec(body)?.[0] ?? null;
  const roots = [...new Set(candidates.filter((r) => readable(profile, r)))];
  return { cwd: normalize(cwd), roots };
}

/** Whether the sandbox lets commands read under `root`. No profile (older Codex): the workspace is readable. */
function readable(profile: string | null, root: string): boolean {
  if (profile === null) return true;
  if (/<file_system\s+type="unrestricted"/.test(profile) || /<permission_profile\s+type="disabled"/.test(profile)) return true;
  for (const m of profile.matchAll(/<entry\s+access="(read|write)">([\s\S]*?)<\/entry>/g)) {
    const special = /<special>([^<]*)<\/special>/.exec(m[2]!)?.[1];
    if (special === ':root') return true;
    const p = decode(/<path>([^<]*)<\/path>/.exec(m[2]!)?.[1]);
    if (p !== null && p.startsWith('/') && within(normalize(p), root)) return true;
  }
  return false;
}

/** `dir` is `root` or inside it. */
export function within(root: string, p: string): boolean {
  return p === root || root === '/' || p.startsWith(`${root}/`);
}

/** Lexical normalization of an absolute path: no `.`, `..`, empty components or trailing slash. */
export function normalize(p: string): string {
  const out: string[] = [];
  for (const c of p.split('/')) {
    if (c === '' || c === '.') continue;
    if (c === '..') out.pop();
    else out.push(c);
  }
  return `/${out.join('/')}`;
}

function decode(s: string | undefined): string | null {
  if (s === undefined) return null;
  return s.replace(/&(lt|gt|amp|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    switch (e) {
      case 'lt': return '<';
      case 'gt': return '>';
      case 'amp': return '&';
      case 'quot': return '"';
      case 'apos': return "'";
      default: {
        const cp = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return cp <= 0x10ffff ? String.fromCodePoint(cp) : '\uFFFD';
      }
    }
  });
}
