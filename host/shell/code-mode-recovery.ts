// REQ-SHELL-001 acceptance 16: a model in Code Mode sometimes gives the shell tool the JavaScript it
// would have given `exec` — `const r = await tools.exec_command({cmd: "…"}); text(r);`. When the
// whole input is exactly one such call (plus the usual result printing), its `cmd` is the script
// the model meant: it is recovered and run, its other fields become exec_command parameters, and a
// warning (first, before the body's own warnings) tells the model what to write instead.
// Anything else is left alone and runs as the Bash it claims to be.

export interface RecoveredCommand {
  readonly cmd: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export const RECOVERY_WARNING =
  'warning: this input was Code Mode JavaScript calling tools.exec_command; its cmd ran as the shell script. ' +
  'Give shell the script itself: no JavaScript, no JSON, no quoting.';

const CALL_HEAD = /^\s*(?:(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*)?await\s+tools\s*\.\s*exec_command\s*\(\s*/;
// After the call: `;`, and result printing such as `text(r);`, `console.log(r.output)`, `return r;`.
const TAIL = /^\s*\)\s*;?(?:\s*(?:(?:text|notify|console\.log)\s*\([^;\n]*\)|return\b[^;\n]*)\s*;?)*\s*$/;

/** The recovered command, or null when the input is not exactly one tools.exec_command call. */
export function recoverCodeModeCommand(input: string): RecoveredCommand | null {
  const head = CALL_HEAD.exec(input);
  if (head === null) return null;
  const obj = parseObjectLiteral(input, head[0].length);
  if (obj === null || !TAIL.test(input.slice(obj.end))) return null;
  const { cmd, ...params } = obj.value;
  if (typeof cmd !== 'string' || cmd === '') return null;
  if (Object.hasOwn(params, 'login') && params['login'] !== false) return null;
  // Integer-like keys would sort before cmd in the carrier's JSON: not exec_command parameters anyway.
  if (Object.keys(params).some((k) => /^(?:0|[1-9][0-9]*)$/.test(k))) return null;
  return { cmd, params };
}

type Value = string | number | boolean | null;

/** A flat JS object literal of string/number/boolean/null values at `pos`; `end` is just after `}`. */
function parseObjectLiteral(src: string, pos: number): { value: Record<string, Value>; end: number } | null {
  let i = pos;
  const ws = (): void => { while (i < src.length && /\s/.test(src[i]!)) i++; };
  if (src[i] !== '{') return null;
  i++;
  const value: Record<string, Value> = Object.create(null);
  for (;;) {
    ws();
    if (src[i] === '}') { i++; break; }
    let key: string | null;
    if (src[i] === '"' || src[i] === "'") {
      const s = stringLiteral(src, i);
      if (s === null) return null;
      key = s.value; i = s.end;
    } else {
      const m = /^[A-Za-z_$][\w$]*/.exec(src.slice(i));
      if (m === null) return null;
      key = m[0]; i += m[0].length;
    }
    ws();
    if (src[i] !== ':') return null;
    i++;
    ws();
    let v: Value;
    if (src[i] === '"' || src[i] === "'" || src[i] === '`') {
      const s = stringLiteral(src, i);
      if (s === null) return null;
      v = s.value; i = s.end;
    } else {
      const m = /^(?:true|false|null|-?\d+(?:\.\d+)?)/.exec(src.slice(i));
      if (m === null) return null;
      v = m[0] === 'true' ? true : m[0] === 'false' ? false : m[0] === 'null' ? null : Number(m[0]);
      i += m[0].length;
    }
    if (Object.hasOwn(value, key)) return null;
    value[key] = v;
    ws();
    if (src[i] === ',') { i++; continue; }
    ws();
    if (src[i] === '}') { i++; break; }
    return null;
  }
  return { value: { ...value }, end: i };
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

/** A JS string literal ('…', "…", or `…` without `${`) at `pos`, unescaped. */
function stringLiteral(src: string, pos: number): { value: string; end: number } | null {
  const q = src[pos]!;
  let out = '';
  for (let i = pos + 1; i < src.length; i++) {
    const c = src[i]!;
    if (c === q) return { value: out, end: i + 1 };
    if (q === '`' && c === '$' && src[i + 1] === '{') return null; // interpolation: not a constant
    if (c === '\n' && q !== '`') return null;
    if (c !== '\\') { out += c; continue; }
    const e = src[++i];
    if (e === undefined) return null;
    if (e === 'x') {
      const h = /^[0-9a-fA-F]{2}/.exec(src.slice(i + 1));
      if (h === null) return null;
      out += String.fromCharCode(parseInt(h[0], 16)); i += 2;
    } else if (e === 'u') {
      const h = /^(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]{1,6}\})/.exec(src.slice(i + 1));
      if (h === null) return null;
      const cp = parseInt(h[0].replace(/[{}]/g, ''), 16);
      if (cp > 0x10ffff) return null;
      out += String.fromCodePoint(cp); i += h[0].length;
    } else if (e === '\n') {
      // line continuation
    } else out += ESCAPES[e] ?? e;
  }
  return null;
}
