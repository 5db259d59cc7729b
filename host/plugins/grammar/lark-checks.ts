// The checks of a parsed Lark grammar for the subset OpenAI documents (lark-grammar.ts parses):
// every symbol defined once and used, no priorities, templates or non-common imports, no recursive
// terminals, ranges in order, and every /regex/ a Rust regex without lazy quantifiers.
import { checkRustRegex } from './rust-regex.ts';
import type { Atom, Expansions, Item, LarkGrammar, LineIndex, RangeLit, Reporter, Span, Statement, Token, Word } from './lark-grammar.ts';

/** Lark's naming rule: lower-case names are rules, upper-case ones terminals. */
export function classifyName(word: string): 'rule' | 'term' | null {
  if (/^_?[a-z][_a-z0-9]*$/.test(word)) return 'rule';
  if (/^_?[A-Z][_A-Z0-9]*$/.test(word)) return 'term';
  return null;
}

// LLGuidance's built-in `%import common.*` table: Lark's common.lark public terminals plus _EXP.
const COMMON_TERMINALS: ReadonlySet<string> = new Set([
  'DIGIT', 'HEXDIGIT', 'INT', 'SIGNED_INT', 'DECIMAL', '_EXP', 'FLOAT', 'SIGNED_FLOAT', 'NUMBER',
  'SIGNED_NUMBER', 'ESCAPED_STRING', 'LCASE_LETTER', 'UCASE_LETTER', 'LETTER', 'WORD', 'CNAME',
  'WS_INLINE', 'WS', 'CR', 'LF', 'NEWLINE', 'SH_COMMENT', 'CPP_COMMENT', 'C_COMMENT', 'SQL_COMMENT',
]);

export function commonTerminalNames(): readonly string[] {
  return [...COMMON_TERMINALS];
}

interface SymbolInfo {
  readonly kind: 'rule' | 'terminal';
  readonly offset: number;
  /** Terminal body, for the recursion check; absent for imports. */
  readonly body?: Expansions;
}

export function checkGrammar(grammar: LarkGrammar, lines: LineIndex, report: Reporter): void {
  const symbols = new Map<string, SymbolInfo>();
  const define = (name: string, sym: SymbolInfo): void => {
    const prev = symbols.get(name);
    if (prev) {
      const { line, column } = lines.at(prev.offset);
      report(`duplicate definition of \`${name}\` (first defined at ${line}:${column})`, sym.offset);
      return;
    }
    symbols.set(name, sym);
  };

  // Pass 1: definitions and directives, with recovered names, in source order (for duplicates).
  const entries: Array<Item | { readonly kind: 'recovered'; readonly word: Word; readonly span: Span }> = [
    ...grammar.items,
    ...grammar.recovered.map((word) => ({ kind: 'recovered' as const, word, span: word.span })),
  ].sort((a, b) => a.span.start - b.span.start);
  for (const item of entries) {
    switch (item.kind) {
      case 'recovered':
        define(item.word.text, { kind: classifyName(item.word.text) === 'rule' ? 'rule' : 'terminal', offset: item.span.start });
        break;
      case 'rule':
      case 'terminal': {
        if (item.templateParams) {
          report(`templates are not supported: \`${item.name}{${item.templateParams.names.join(', ')}}\``, item.templateParams.span.start);
        }
        if (item.priority) {
          const what = item.kind === 'rule' ? 'rule' : 'terminal';
          report(`${what} priorities are not supported: \`${item.name}.${item.priority.value}\``, item.priority.span.start);
        }
        define(item.name, { kind: item.kind, offset: item.nameSpan.start, ...(item.kind === 'terminal' ? { body: item.body } : {}) });
        break;
      }
      case 'import':
        checkImport(item, report, (name, offset) => define(name, { kind: 'terminal', offset }));
        break;
      case 'declare':
        report('`%declare` is not supported', item.span.start);
        // Count the names as defined so their uses are not reported a second time.
        for (const w of item.names) if (!symbols.has(w.text)) symbols.set(w.text, { kind: classifyName(w.text) === 'rule' ? 'rule' : 'terminal', offset: w.span.start });
        break;
      case 'override':
      case 'extend':
        report(`\`%${item.kind}\` is not supported`, item.span.start);
        break;
      case 'ignore':
        break;
    }
  }

  // Pass 2: bodies.
  for (const item of grammar.items) {
    if (item.kind === 'rule' || item.kind === 'terminal') {
      // Template parameters are local names (templates themselves are already reported).
      let scope: ReadonlyMap<string, SymbolInfo> = symbols;
      if (item.templateParams) {
        const params = item.templateParams;
        scope = new Map([...symbols, ...params.names.map((p): [string, SymbolInfo] => [p, { kind: 'rule', offset: params.span.start }])]);
      }
      checkBody(item.body, item.kind, `${item.kind} \`${item.name}\``, scope, grammar.brokenImport, report);
    }
    if (item.kind === 'terminal') {
      const only = item.body[0];
      if (item.body.length === 1 && only !== undefined && only.items.length === 0) {
        report(`terminal \`${item.name}\` is empty`, item.nameSpan.start);
      }
    } else if (item.kind === 'ignore') {
      const only = item.body[0];
      if (item.body.length === 1 && only !== undefined && only.items.length === 0) report('`%ignore` expects a value', item.span.start);
      checkBody(item.body, 'terminal', '`%ignore`', symbols, grammar.brokenImport, report);
    }
  }

  checkTerminalRecursion(symbols, report);

  const start = symbols.get('start');
  if (start === undefined || start.kind !== 'rule') report('missing `start` rule: OpenAI grammars begin at `start`');
}

function checkImport(
  item: Extract<Statement, { kind: 'import' }>,
  report: Reporter,
  define: (name: string, offset: number) => void,
): void {
  const dotted = (item.relative ? '.' : '') + item.path.map((w) => w.text).join('.');
  const head = item.path[0];
  if (item.relative || head?.text !== 'common') {
    report(`\`%import ${dotted}\` is not supported: only \`%import common.NAME\` imports are available`, item.span.start);
    // Still define the imported names, so their uses are not reported as undefined too.
    const last = item.path.at(-1);
    for (const w of item.names ?? (item.alias ? [item.alias] : last && item.path.length > 1 ? [last] : [])) define(w.text, w.span.start);
    return;
  }
  const importOne = (word: Word, localName: Word): void => {
    if (!COMMON_TERMINALS.has(word.text)) {
      report(`unknown common terminal \`${word.text}\` (known: ${[...COMMON_TERMINALS].join(', ')})`, word.span.start);
      define(localName.text, localName.span.start);
      return;
    }
    if (classifyName(localName.text) !== 'term') {
      report(`common terminal \`${word.text}\` must be imported under an upper-case terminal name, not \`${localName.text}\``, localName.span.start);
      return;
    }
    define(localName.text, localName.span.start);
  };
  if (item.names) {
    if (item.path.length !== 1) {
      report(`\`%import ${dotted} (…)\` is not supported: use \`%import common (NAME, …)\``, item.span.start);
      return;
    }
    for (const n of item.names) importOne(n, n);
    return;
  }
  const target = item.path[1];
  if (item.path.length !== 2 || target === undefined) {
    report(`\`%import ${dotted}\` must name one common terminal, e.g. \`%import common.WS\``, item.span.start);
    return;
  }
  importOne(target, item.alias ?? target);
}

function checkBody(
  body: Expansions,
  context: 'rule' | 'terminal',
  owner: string,
  symbols: ReadonlyMap<string, SymbolInfo>,
  brokenImport: boolean,
  report: Reporter,
): void {
  const visitAtom = (atom: Atom): void => {
    switch (atom.kind) {
      case 'name': {
        if (atom.templateArgs) {
          report(`templates are not supported: \`${atom.name}{…}\``, atom.span.start);
          atom.templateArgs.forEach(visitAtom);
        }
        const isRuleName = classifyName(atom.name) === 'rule';
        if (context === 'terminal' && isRuleName) {
          report(`${owner} references rule \`${atom.name}\`: terminals may only use terminals, strings and regexes`, atom.span.start);
        } else if (!symbols.has(atom.name) && !(brokenImport && !isRuleName)) {
          // After a broken %import, an unknown terminal may be one it would have imported: stay quiet.
          report(`undefined ${isRuleName ? 'rule' : 'terminal'} \`${atom.name}\``, atom.span.start);
        }
        break;
      }
      case 'string':
        if (atom.value === '') report('empty string literal: terminals cannot be empty', atom.span.start);
        break;
      case 'range':
        checkRange(atom, report);
        break;
      case 'regex': // checked per token, see larkGrammarProblems
        break;
      case 'group':
      case 'maybe':
        visit(atom.body);
        break;
      case 'bad':
        break;
    }
  };
  const visit = (alts: Expansions): void => {
    for (const alt of alts) {
      if (alt.alias && context === 'terminal') {
        report(`aliases (\`-> ${alt.alias.name}\`) are not allowed in ${owner}`, alt.alias.span.start);
      }
      for (const e of alt.items) visitAtom(e.atom);
    }
  };
  visit(body);
}

// Both ends of `"a".."z"` are single characters without the `i` flag, in order.
function checkRange(atom: RangeLit, report: Reporter): void {
  const from = [...atom.from];
  const to = [...atom.to];
  const shown = `${JSON.stringify(atom.from)}..${JSON.stringify(atom.to)}`;
  if (atom.flagged) {
    report('the `i` flag is not allowed in a `"a".."z"` range', atom.span.start);
  } else if (from.length !== 1 || to.length !== 1) {
    report(`range ${shown} needs a single character on each side`, atom.span.start);
  } else if ((from[0]?.codePointAt(0) ?? 0) > (to[0]?.codePointAt(0) ?? 0)) {
    report(`range ${shown} is reversed`, atom.span.start);
  }
}

// The body is passed to Rust verbatim with Lark's flags as a `(?flags)` prefix, as LLGuidance does;
// issue offsets map back into the grammar through the body's start.
export function checkRegexLiteral(tok: Token, report: Reporter): void {
  const pattern = tok.value ?? '';
  const given = tok.flags ?? '';
  if (given.includes('l')) {
    report('the `l` regex flag is not supported (Rust regex has no such flag)', tok.start + pattern.length + 2);
  }
  const flags = [...new Set(given.replace(/l/g, ''))].join('');
  const prefix = flags === '' ? '' : `(?${flags})`;
  const bodyStart = tok.start + 1;
  for (const issue of checkRustRegex(prefix + pattern)) {
    const offset = issue.offset < prefix.length ? tok.start : bodyStart + issue.offset - prefix.length;
    report(issue.message, offset);
  }
}

// Terminals are regular: a terminal may not reach itself through other terminals.
function checkTerminalRecursion(symbols: ReadonlyMap<string, SymbolInfo>, report: Reporter): void {
  const refs = (body: Expansions): string[] => {
    const out: string[] = [];
    const walk = (alts: Expansions): void => {
      for (const alt of alts) {
        for (const e of alt.items) {
          if (e.atom.kind === 'name') out.push(e.atom.name);
          else if (e.atom.kind === 'group' || e.atom.kind === 'maybe') walk(e.atom.body);
        }
      }
    };
    walk(body);
    return out;
  };
  const state = new Map<string, 'active' | 'done'>();
  const reported = new Set<string>();
  const dfs = (name: string, stack: string[]): void => {
    const sym = symbols.get(name);
    if (sym?.kind !== 'terminal' || sym.body === undefined) return;
    const s = state.get(name);
    if (s === 'done') return;
    if (s === 'active') {
      const cycle = stack.slice(stack.indexOf(name));
      const head = cycle[0] ?? name;
      if (!cycle.some((n) => reported.has(n))) {
        cycle.forEach((n) => reported.add(n));
        const offset = symbols.get(head)?.offset;
        report(`terminal \`${head}\` is recursive (${[...cycle, head].join(' → ')}); recursion is only allowed in rules`, offset);
      }
      return;
    }
    state.set(name, 'active');
    for (const r of refs(sym.body)) dfs(r, [...stack, name]);
    state.set(name, 'done');
  };
  for (const name of symbols.keys()) dfs(name, []);
}
