// `complete`: programmable-completion specs, stored and printed as bash does. A non-interactive
// shell never completes anything, but scripts (and bash-completion files they source) define
// specs and list them with `complete -p`; bash keeps them in a 256-bucket hash table, listed in
// bucket order (bash-hash-order.ts), each printed in the fixed order of its print_one_completion.
import { bucketOrder } from '../execution/bash-hash-order.ts';

/** Letter actions, in the order bash prints them. */
const LETTERS = 'abcdefgjksuv';
const LETTER_ACTION: Readonly<Record<string, string>> = {
  alias: 'a', builtin: 'b', command: 'c', directory: 'd', export: 'e', file: 'f', group: 'g', job: 'j', keyword: 'k', service: 's', user: 'u', variable: 'v',
};
/** `-A` actions without a letter, in the order bash prints them. */
const NAMED_ACTIONS = ['arrayvar', 'binding', 'disabled', 'enabled', 'function', 'helptopic', 'hostname', 'running', 'setopt', 'shopt', 'signal', 'stopped'];
/** `-o` options, in the order bash prints them. */
const OPTIONS = ['bashdefault', 'default', 'dirnames', 'filenames', 'noquote', 'nosort', 'nospace', 'plusdirs'];
/** Valued options, in the order bash prints them (`-F` unquoted, the others single-quoted). */
const VALUED = ['G', 'W', 'P', 'S', 'X', 'C', 'F'] as const;
type Valued = (typeof VALUED)[number];

/** The keys bash stores the `-D`, `-E` and `-I` specs under, and how they print. */
const SPECIAL: ReadonlyArray<readonly [flag: 'D' | 'E' | 'I', key: string]> = [['D', '_DefaultCmD_'], ['E', '_EmptycmD_'], ['I', '_InitialWorD_']];

interface Spec {
  readonly letters: Set<string>;
  readonly named: Set<string>;
  readonly options: Set<string>;
  readonly values: Partial<Record<Valued, string>>;
}

export type CompleteResult = { readonly status: number; readonly out: string; readonly errors: readonly string[]; readonly usage?: string };

/** One shell's table (insertion order = age, as the bucket order needs). */
export class CompletionSpecs {
  private readonly table = new Map<string, Spec>();
  /** bash creates its table on the first spec; before that `complete -r NAME` finds nothing to say. */
  private created = false;

  /** Runs `complete ARGS…` (without the name). */
  run(args: readonly string[]): CompleteResult {
    const spec: Spec = { letters: new Set(), named: new Set(), options: new Set(), values: {} };
    let print = false, remove = false;
    const special = new Set<string>();
    let i = 0;
    const errors: string[] = [];
    for (; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--') { i++; break; }
      if (!a.startsWith('-') || a === '-') break;
      for (let k = 1; k < a.length; k++) {
        const c = a[k]!;
        if (LETTERS.includes(c)) spec.letters.add(c);
        else if (c === 'p') print = true;
        else if (c === 'r') remove = true;
        else if (c === 'D' || c === 'E' || c === 'I') special.add(c);
        else if ('oAGWCFXPS'.includes(c)) {
          const v = k + 1 < a.length ? a.slice(k + 1) : args[++i];
          if (v === undefined) return { status: 2, out: '', errors: [`-${c}: option requires an argument`], usage: 'complete' };
          if (c === 'o') {
            if (!OPTIONS.includes(v)) return { status: 2, out: '', errors: [`${v}: invalid option name`] };
            spec.options.add(v);
          } else if (c === 'A') {
            if (LETTER_ACTION[v] !== undefined) spec.letters.add(LETTER_ACTION[v]!);
            else if (NAMED_ACTIONS.includes(v)) spec.named.add(v);
            else return { status: 2, out: '', errors: [`${v}: invalid action name`] };
          } else spec.values[c as Valued] = v;
          break;
        } else return { status: 2, out: '', errors: [`-${c}: invalid option`], usage: 'complete' };
      }
    }
    const names = [...args.slice(i), ...SPECIAL.filter(([f]) => special.has(f)).map(([, key]) => key)];
    if (print || (names.length === 0 && !remove && isEmpty(spec))) return this.print(names, errors);
    if (remove) {
      if (names.length === 0) { this.table.clear(); return { status: 0, out: '', errors }; }
      let status = 0;
      for (const n of names) {
        if (!this.table.delete(n) && this.created) { errors.push(`${shown(n)}: no completion specification`); status = 1; }
      }
      return { status, out: '', errors };
    }
    this.created ||= names.length > 0;
    for (const n of names) {
      this.table.delete(n); // a redefinition is a new entry (its age changes)
      this.table.set(n, spec);
    }
    return { status: 0, out: '', errors };
  }

  private print(names: readonly string[], errors: string[]): CompleteResult {
    let out = '';
    let status = 0;
    const entries = names.length > 0 ? names.map((n) => [n, this.table.get(n)] as const) : bucketOrder(this.table, 256);
    for (const [name, spec] of entries) {
      if (spec === undefined) { errors.push(`${shown(name)}: no completion specification`); status = 1; continue; }
      out += `${render(name, spec)}\n`;
    }
    return { status, out, errors };
  }
}

function isEmpty(s: Spec): boolean {
  return s.letters.size === 0 && s.named.size === 0 && s.options.size === 0 && Object.keys(s.values).length === 0;
}

function shown(name: string): string {
  const special = SPECIAL.find(([, key]) => key === name);
  return special ? `-${special[0]}` : name;
}

function quote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

function render(name: string, s: Spec): string {
  const parts = ['complete'];
  for (const o of OPTIONS) if (s.options.has(o)) parts.push('-o', o);
  for (const c of LETTERS) if (s.letters.has(c)) parts.push(`-${c}`);
  for (const a of NAMED_ACTIONS) if (s.named.has(a)) parts.push('-A', a);
  for (const v of VALUED) {
    const val = s.values[v];
    if (val !== undefined) parts.push(`-${v}`, v === 'F' ? val : quote(val));
  }
  const special = SPECIAL.find(([, key]) => key === name);
  parts.push(special ? `-${special[0]}` : name);
  return parts.join(' ');
}
