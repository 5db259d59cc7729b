// How `declare -p` shows a variable (its attribute letters, its value quoted as bash quotes it,
// an array's elements in bash's order), also used by `${x@A}`, `${x@a}`, export -p and readonly -p.
import { assocKeyNeedsQuotes, dquote } from '../words/quoting.ts';
import type { VarHost } from './host.ts';
import { INTEGER_DYNAMIC } from './special.ts';
import type { VarStore } from './store.ts';
import { assocOrder } from './var.ts';

/** The attribute letters of `name` (`raw`: of the variable itself, not a nameref's target), in `declare`'s order. */
export function attrString(vars: VarStore, name: string, raw = false): string {
  const v = raw ? vars.raw(name) : vars.resolve(name);
  if (!v) return name === 'SHELLOPTS' || name === 'BASHOPTS' ? 'r' : '';
  let s = '';
  if (v.arr) s += 'a';
  if (v.assoc) s += 'A';
  if (v.integer) s += 'i';
  if (v.nameref) s += 'n';
  if (v.readonly) s += 'r';
  if (v.trace) s += 't';
  if (v.exported) s += 'x';
  if (v.capcase) s += 'c';
  if (v.lower) s += 'l';
  if (v.upper) s += 'u';
  return s;
}

/** `declare -p name`'s line (without the newline); '' when there is no such variable. */
export function declareLine(vars: VarStore, host: VarHost, name: string): string {
  const v = vars.raw(name);
  const utf8 = vars.utf8Locale();
  const dq = (x: string): string => dquote(x, utf8);
  if (!v && vars.isStackVar(name)) {
    const a = host.callStack(name)!;
    return a.length || name !== 'FUNCNAME' ? `declare -a ${name}=(${a.map((x, i) => `[${i}]=${dq(x)}`).join(' ')})` : `declare -a ${name}`;
  }
  if (!v && name === '_') return `declare -- _=${dq(vars.prevLastArg)}`;
  if (!v && vars.isDynamic(name)) {
    // (bash runs the variable's function: RANDOM moves on)
    return `declare ${INTEGER_DYNAMIC.has(name) ? '-i' : '--'} ${name}=${dq(vars.param(name) ?? '')}`;
  }
  if (!v) return name === 'SHELLOPTS' || name === 'BASHOPTS' ? `declare -r ${name}=${dq(vars.param(name)!)}` : '';
  if (name === 'SHELLOPTS' || name === 'BASHOPTS') return `declare -${attrString(vars, name, true)} ${name}=${dq(vars.param(name)!)}`;
  const flags = attrString(vars, name, true) || '-';
  const f = flags === '-' ? '--' : '-' + flags;
  if ((v.arr?.size === 0 || v.assoc?.size === 0) && v.declOnly) return `declare ${f} ${name}`;
  if (v.arr) {
    const items = [...v.arr.entries()].sort((a, b) => a[0] - b[0]).map(([k, x]) => `[${k}]=${dq(x)}`);
    return `declare ${f} ${name}=(${items.join(' ')})`;
  }
  if (v.assoc) {
    const items = assocOrder(v.assoc).map(([k, x]) => `[${assocKeyNeedsQuotes(k, utf8) ? dq(k) : k}]=${dq(x)}`);
    return `declare ${f} ${name}=(${items.join(' ')}${items.length ? ' ' : ''})`;
  }
  if (v.str === undefined) return `declare ${f} ${name}`;
  return `declare ${f} ${name}=${dq(v.str)}`;
}
