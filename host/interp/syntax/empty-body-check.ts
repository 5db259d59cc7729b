// bash's grammar needs at least one command in every compound-command body; mvdan/sh v3.5
// accepts an empty body when it spans lines (`do` NEWLINE `done`, `{ }`, `( )`). Scripts with
// such bodies fail in bash before anything runs (status 2), so we report them the same way.
// It also takes a stray `else` as a command name (`a; else b`), which bash's grammar rejects too.

const FUNC_BODIES = new Set(['Block', 'Subshell', 'IfClause', 'WhileClause', 'ForClause', 'CaseClause', 'ArithmCmd', 'TestClause']);

/** The first empty body in `file` (or a function body that is no compound command: token '', the word there): the token bash stops at and its byte offset, or undefined. */
export function findEmptyBody(file: unknown): { token: string; offset: number } | undefined {
  let found: { token: string; offset: number } | undefined;
  const report = (token: string, offset: number): void => {
    if (!found || offset < found.offset) found = { token, offset };
  };
  const empty = (l: unknown): boolean => Array.isArray(l) && l.length === 0;
  // (a walk with its own stack: a tree can be thousands of levels deep, `$(( x+x+…+x ))`)
  const todo: unknown[] = [file];
  while (todo.length) {
    const v = todo.pop();
    if (Array.isArray(v)) { for (let i = v.length - 1; i >= 0; i--) todo.push(v[i]); continue; }
    if (v === null || typeof v !== 'object') continue;
    const n = v as Record<string, any>;
    switch (n['type']) {
      case 'WhileClause':
        if (empty(n['Cond'])) report('do', n['DoPos']);
        else if (empty(n['Do'])) report('done', n['DonePos']);
        break;
      case 'ForClause':
        if (empty(n['Do'])) report('done', n['DonePos']);
        break;
      case 'IfClause': {
        const isElse = n['ThenPos'] === 0;
        const next = n['Else'] as Record<string, any> | null;
        const after = next ? (next['ThenPos'] === 0 ? 'else' : 'elif') : 'fi';
        const afterPos = next ? next['Position'] : n['FiPos'];
        if (!isElse && empty(n['Cond'])) report('then', n['ThenPos']);
        else if (empty(n['Then'])) report(isElse ? 'fi' : after, isElse ? n['FiPos'] : afterPos);
        break;
      }
      case 'Block':
        if (empty(n['Stmts'])) report('}', n['Rbrace']);
        break;
      case 'Subshell':
        if (empty(n['Stmts'])) report(')', n['Rparen']);
        break;
      case 'CallExpr': {
        // (the first word, unquoted and with no assignment before it, is the reserved word)
        const w = (n['Args'] as Array<Record<string, any>> | undefined)?.[0];
        const lit = w?.['Parts']?.length === 1 ? w['Parts'][0] : undefined;
        if (empty(n['Assigns']) && lit?.['type'] === 'Lit' && lit['Value'] === 'else') report('else', lit['ValuePos']);
        break;
      }
      case 'FuncDecl': {
        // (bash's function body is a compound command; mvdan-sh takes any statement: `f() echo x`)
        const b = n['Body'] as Record<string, any> | null;
        if (b && (b['Negated'] || !FUNC_BODIES.has(b['Cmd']?.['type']))) report('', b['Position']);
        break;
      }
    }
    for (const k in n) if (k !== 'type') { const x = n[k]; if (x !== null && typeof x === 'object') todo.push(x); }
  }
  return found;
}
