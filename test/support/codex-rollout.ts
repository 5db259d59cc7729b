// Reads what Codex itself recorded: the session rollout(s) under $CODEX_HOME/sessions. Tests use it
// to check the command Codex actually ran for a carrier, not just what the router sent.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

type Json = Record<string, any>;

/** Every JSON line of every rollout-*.jsonl below `codexHome/sessions`, in file order. */
export function rolloutLines(codexHome: string): Json[] {
  const out: Json[] = [];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (/^rollout-.*\.jsonl$/.test(n)) {
        for (const line of readFileSync(p, 'utf8').split('\n')) if (line.trim() !== '') out.push(JSON.parse(line) as Json);
      }
    }
  };
  walk(join(codexHome, 'sessions'));
  return out;
}

/**
 * The command string of every command Codex executed (`/bin/bash -lc <command>`), in order, from its
 * CommandExecution items: the same record for a native exec_command and a Code Mode nested call.
 */
export function executedCommands(codexHome: string): string[] {
  const cmds: string[] = [];
  for (const l of rolloutLines(codexHome)) {
    const p = l['payload'] as Json | undefined;
    const item = p?.['type'] === 'item_completed' ? (p['item'] as Json | undefined) : undefined;
    if (item?.['type'] !== 'CommandExecution' || !Array.isArray(item['command'])) continue;
    const c = item['command'] as string[];
    cmds.push(String(c[c.length - 1]));
  }
  return cmds;
}
