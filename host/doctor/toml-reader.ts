// A TOML 1.0 reader for what doctor reads from Codex's config.toml: tables and arrays of tables
// with bare, quoted and dotted keys, inline tables, arrays, every string form, integers, floats,
// booleans and date-times (kept as their text). Bad TOML is a TomlError with line and column.
// The project has no TOML dependency and the router needs none; doctor only reads.

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

export class TomlError extends Error {
  override readonly name = 'TomlError';
  constructor(readonly why: string, readonly line: number, readonly column: number) {
    super(`line ${line}, column ${column}: ${why}`);
  }
}

/** Input bigger than this is refused (a config file is a few KiB). */
export const TOML_LIMIT = 4 * 1024 * 1024;
const MAX_DEPTH = 100;

export function parseToml(text: string): TomlTable {
  if (text.length > TOML_LIMIT) throw new TomlError(`file is larger than ${TOML_LIMIT} bytes`, 1, 1);
  return new Reader(text.startsWith('\uFEFF') ? text.slice(1) : text).document();
}

const BARE_KEY = /[A-Za-z0-9_-]/;
const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b', '"': '"', '\\': '\\' };
const DATE_TIME = /^(?:\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?)?|\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)/;
const DEC_INT = /^[+-]?(?:0|[1-9](?:_?\d)*)$/;
const FLOAT = /^[+-]?(?:0|[1-9](?:_?\d)*)(?:\.\d(?:_?\d)*)?(?:[eE][+-]?\d(?:_?\d)*)?$/;
const RADIX_INT: Record<string, [RegExp, number]> = { x: [/^0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*$/, 16], o: [/^0o[0-7](?:_?[0-7])*$/, 8], b: [/^0b[01](?:_?[01])*$/, 2] };

class Reader {
  private pos = 0;
  private readonly root: TomlTable = {};
  /** Tables opened by a [header] (may not be opened again). */
  private readonly headed = new WeakSet<TomlTable>();
  /** Inline tables and arrays (closed once written). */
  private readonly sealed = new WeakSet<object>();
  /** Arrays made by [[header]] (only these take more tables). */
  private readonly tableArrays = new WeakSet<TomlValue[]>();
  /** Tables made by dotted keys (a [header] may not reopen them). */
  private readonly dotted = new WeakSet<TomlTable>();

  constructor(private readonly src: string) {}

  document(): TomlTable {
    let current = this.root;
    for (;;) {
      this.skipBlankLines();
      if (this.pos >= this.src.length) return this.root;
      if (this.src[this.pos] === '[') current = this.header();
      else this.keyValue(current);
      this.endOfLine();
    }
  }

  private fail(why: string, at = this.pos): never {
    const before = this.src.slice(0, at);
    const line = before.split('\n').length;
    throw new TomlError(why, line, at - before.lastIndexOf('\n'));
  }

  private skipSpaces(): void {
    while (this.src[this.pos] === ' ' || this.src[this.pos] === '\t') this.pos++;
  }

  private skipComment(): void {
    if (this.src[this.pos] !== '#') return;
    while (this.pos < this.src.length && this.src[this.pos] !== '\n') {
      const c = this.src.charCodeAt(this.pos);
      if ((c < 0x20 && c !== 0x09 && !(c === 0x0d && this.src[this.pos + 1] === '\n')) || c === 0x7f) this.fail('control character in a comment');
      this.pos++;
    }
  }

  private newline(): boolean {
    if (this.src[this.pos] === '\n') return ++this.pos > 0;
    if (this.src[this.pos] === '\r' && this.src[this.pos + 1] === '\n') return (this.pos += 2) > 0;
    return false;
  }

  private skipBlankLines(): void {
    for (;;) {
      this.skipSpaces();
      this.skipComment();
      if (!this.newline()) return;
    }
  }

  /** Whitespace, newlines and comments (inside arrays). */
  private skipAll(): void {
    this.skipBlankLines();
  }

  private endOfLine(): void {
    this.skipSpaces();
    this.skipComment();
    if (this.pos < this.src.length && !this.newline()) this.fail(`expected the end of the line, found ${JSON.stringify(this.src[this.pos])}`);
  }

  private header(): TomlTable {
    const start = this.pos;
    const array = this.src.startsWith('[[', this.pos);
    this.pos += array ? 2 : 1;
    this.skipSpaces();
    const keys = this.key();
    this.skipSpaces();
    if (!this.src.startsWith(array ? ']]' : ']', this.pos)) this.fail(`expected ${array ? ']]' : ']'} to close the table header`);
    this.pos += array ? 2 : 1;
    const name = keys.join('.');
    let table = this.root;
    for (const k of keys.slice(0, -1)) table = this.descend(table, k, start, name);
    const last = keys[keys.length - 1]!;
    const existing = own(table, last);
    if (array) {
      if (existing === undefined) {
        const list: TomlValue[] = [];
        this.tableArrays.add(list);
        put(table, last, list);
      } else if (!Array.isArray(existing) || !this.tableArrays.has(existing)) this.fail(`[[${name}]] names a key that is not an array of tables`, start);
      const fresh: TomlTable = {};
      (own(table, last) as TomlValue[]).push(fresh);
      this.headed.add(fresh);
      return fresh;
    }
    if (existing === undefined) {
      const fresh: TomlTable = {};
      put(table, last, fresh);
      this.headed.add(fresh);
      return fresh;
    }
    if (!isTable(existing) || this.headed.has(existing) || this.sealed.has(existing) || this.dotted.has(existing)) this.fail(`table [${name}] is defined more than once`, start);
    this.headed.add(existing);
    return existing;
  }

  /** The table at `k` inside `table` for a header path: created implicitly, or the last of an array of tables. */
  private descend(table: TomlTable, k: string, at: number, name: string): TomlTable {
    const v = own(table, k);
    if (v === undefined) {
      const fresh: TomlTable = {};
      put(table, k, fresh);
      return fresh;
    }
    if (Array.isArray(v) && this.tableArrays.has(v)) return v[v.length - 1] as TomlTable;
    if (isTable(v) && !this.sealed.has(v)) return v;
    return this.fail(`[${name}]: key ${JSON.stringify(k)} is already a value, not a table`, at);
  }

  private keyValue(table: TomlTable): void {
    const start = this.pos;
    const keys = this.key();
    this.skipSpaces();
    if (this.src[this.pos] !== '=') this.fail(`expected "=" after the key ${keys.join('.')}`);
    this.pos++;
    this.skipSpaces();
    let t = table;
    for (const k of keys.slice(0, -1)) {
      const v = own(t, k);
      if (v === undefined) {
        const fresh: TomlTable = {};
        this.dotted.add(fresh);
        put(t, k, fresh);
        t = fresh;
      } else if (isTable(v) && this.dotted.has(v)) t = v;
      else this.fail(`key ${keys.join('.')}: ${JSON.stringify(k)} is already defined`, start);
    }
    const last = keys[keys.length - 1]!;
    if (own(t, last) !== undefined) this.fail(`key ${keys.join('.')} is defined more than once`, start);
    put(t, last, this.value(0));
  }

  private key(): string[] {
    const parts: string[] = [];
    for (;;) {
      const c = this.src[this.pos];
      if (c === '"') {
        if (this.src.startsWith('"""', this.pos)) this.fail('a key cannot be a multi-line string');
        parts.push(this.basicString());
      } else if (c === "'") {
        if (this.src.startsWith("'''", this.pos)) this.fail('a key cannot be a multi-line string');
        parts.push(this.literalString());
      } else {
        const start = this.pos;
        while (this.pos < this.src.length && BARE_KEY.test(this.src[this.pos]!)) this.pos++;
        if (this.pos === start) this.fail(c === undefined ? 'expected a key, found the end of the file' : `expected a key, found ${JSON.stringify(c)}`);
        parts.push(this.src.slice(start, this.pos));
      }
      this.skipSpaces();
      if (this.src[this.pos] !== '.') return parts;
      this.pos++;
      this.skipSpaces();
    }
  }

  private value(depth: number): TomlValue {
    if (depth > MAX_DEPTH) this.fail(`values nested deeper than ${MAX_DEPTH}`);
    const c = this.src[this.pos];
    if (c === '"') return this.src.startsWith('"""', this.pos) ? this.multilineBasic() : this.basicString();
    if (c === "'") return this.src.startsWith("'''", this.pos) ? this.multilineLiteral() : this.literalString();
    if (c === '[') return this.array(depth);
    if (c === '{') return this.inlineTable(depth);
    if (this.src.startsWith('true', this.pos) && !BARE_KEY.test(this.src[this.pos + 4] ?? '')) return (this.pos += 4), true;
    if (this.src.startsWith('false', this.pos) && !BARE_KEY.test(this.src[this.pos + 5] ?? '')) return (this.pos += 5), false;
    const rest = this.src.slice(this.pos, this.pos + 64);
    const dt = DATE_TIME.exec(rest);
    if (dt && /^\d{4}-|^\d{2}:/.test(rest)) {
      this.pos += dt[0].length;
      return dt[0];
    }
    const start = this.pos;
    while (this.pos < this.src.length && /[0-9A-Za-z_+.-]/.test(this.src[this.pos]!)) this.pos++;
    const tok = this.src.slice(start, this.pos);
    if (tok === '') this.fail(c === undefined || c === '\n' || c === '\r' ? 'expected a value' : `expected a value, found ${JSON.stringify(c)}`);
    const n = number(tok);
    if (n === null) this.fail(`${JSON.stringify(tok)} is not a TOML value (strings need quotes)`, start);
    return n;
  }

  private basicString(): string {
    const start = this.pos++;
    let out = '';
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined || c === '\n' || c === '\r') this.fail('unterminated string', start);
      this.pos++;
      if (c === '"') return out;
      if (c === '\\') out += this.escape();
      else out += this.checkedChar(c);
    }
  }

  private multilineBasic(): string {
    const start = this.pos;
    this.pos += 3;
    this.newline();
    let out = '';
    for (;;) {
      if (this.pos >= this.src.length) this.fail('unterminated multi-line string', start);
      if (this.src.startsWith('"""', this.pos)) {
        // Up to two quotes may end the content right before the closing three.
        let q = 3;
        while (q < 5 && this.src[this.pos + q] === '"') q++;
        out += '"'.repeat(q - 3);
        this.pos += q;
        return out;
      }
      const c = this.src[this.pos++]!;
      if (c === '\\') {
        // A line-ending backslash trims the newline and the whitespace after it.
        const save = this.pos;
        this.skipSpaces();
        if (this.newline()) {
          for (;;) {
            if (this.src[this.pos] === ' ' || this.src[this.pos] === '\t') this.pos++;
            else if (!this.newline()) break;
          }
          continue;
        }
        this.pos = save;
        out += this.escape();
      } else if (c === '\n' || (c === '\r' && this.src[this.pos] === '\n')) out += c;
      else out += this.checkedChar(c);
    }
  }

  private literalString(): string {
    const start = this.pos++;
    const end = this.src.indexOf("'", this.pos);
    const nl = this.src.slice(this.pos, end < 0 ? undefined : end).search(/[\r\n]/);
    if (end < 0 || nl >= 0) this.fail('unterminated literal string', start);
    const out = this.src.slice(this.pos, end);
    for (const ch of out) this.checkedChar(ch);
    this.pos = end + 1;
    return out;
  }

  private multilineLiteral(): string {
    const start = this.pos;
    this.pos += 3;
    this.newline();
    const end = this.src.indexOf("'''", this.pos);
    if (end < 0) this.fail('unterminated multi-line literal string', start);
    let close = end + 3;
    while (close < end + 5 && this.src[close] === "'") close++;
    const out = this.src.slice(this.pos, close - 3);
    this.pos = close;
    return out;
  }

  private escape(): string {
    const c = this.src[this.pos++];
    if (c !== undefined && c in ESCAPES) return ESCAPES[c]!;
    if (c === 'u' || c === 'U') {
      const len = c === 'u' ? 4 : 8;
      const hex = this.src.slice(this.pos, this.pos + len);
      if (!new RegExp(`^[0-9A-Fa-f]{${len}}$`).test(hex)) this.fail(`\\${c} needs ${len} hex digits`);
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) this.fail(`\\${c}${hex} is not a Unicode scalar value`);
      this.pos += len;
      return String.fromCodePoint(cp);
    }
    return this.fail(`invalid escape \\${c ?? ''}`, this.pos - 2);
  }

  private checkedChar(c: string): string {
    const code = c.charCodeAt(0);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) this.fail('control character in a string (escape it)', this.pos - 1);
    return c;
  }

  private array(depth: number): TomlValue[] {
    const start = this.pos++;
    const out: TomlValue[] = [];
    for (;;) {
      this.skipAll();
      if (this.pos >= this.src.length) this.fail('unterminated array', start);
      if (this.src[this.pos] === ']') break;
      out.push(this.value(depth + 1));
      this.skipAll();
      if (this.src[this.pos] === ',') this.pos++;
      else if (this.src[this.pos] !== ']') this.fail('expected "," or "]" in an array');
    }
    this.pos++;
    this.sealed.add(out);
    return out;
  }

  private inlineTable(depth: number): TomlTable {
    const start = this.pos++;
    const out: TomlTable = {};
    this.skipSpaces();
    if (this.src[this.pos] === '}') {
      this.pos++;
      this.sealed.add(out);
      return out;
    }
    for (;;) {
      this.skipSpaces();
      if (this.pos >= this.src.length || this.src[this.pos] === '\n') this.fail('unterminated inline table (it must be on one line)', start);
      if (depth + 1 > MAX_DEPTH) this.fail(`values nested deeper than ${MAX_DEPTH}`);
      this.keyValue(out);
      this.skipSpaces();
      if (this.src[this.pos] === ',') {
        this.pos++;
        continue;
      }
      if (this.src[this.pos] === '}') break;
      this.fail('expected "," or "}" in an inline table');
    }
    this.pos++;
    this.sealed.add(out);
    return out;
  }
}

function number(tok: string): number | null {
  if (/^[+-]?(inf|nan)$/.test(tok)) return tok.endsWith('nan') ? NaN : tok.startsWith('-') ? -Infinity : Infinity;
  const radix = RADIX_INT[tok[1] ?? ''];
  if (tok[0] === '0' && radix) return radix[0].test(tok) ? parseInt(tok.slice(2).replace(/_/g, ''), radix[1]) : null;
  if (DEC_INT.test(tok)) return Number(tok.replace(/_/g, ''));
  if (FLOAT.test(tok)) return Number(tok.replace(/_/g, ''));
  return null;
}

/** Own properties only: a key named `constructor` or `__proto__` is data like any other. */
function own(t: TomlTable, k: string): TomlValue | undefined {
  return Object.prototype.hasOwnProperty.call(t, k) ? t[k] : undefined;
}

function put(t: TomlTable, k: string, v: TomlValue): void {
  Object.defineProperty(t, k, { value: v, enumerable: true, writable: true, configurable: true });
}

export function isTable(v: TomlValue | undefined): v is TomlTable {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
