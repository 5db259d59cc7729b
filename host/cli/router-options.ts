// Router command-line options (brief §5). Every problem is collected so that startup can report
// them all at once before exiting.
import { isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../log/logger.ts';
import { formatDuration, parseDuration } from './duration.ts';

export type Mode = 'hpatch' | 'passthrough';

export interface RouterOptions {
  readonly mode: Mode;
  readonly host: string;
  readonly port: number;
  readonly upstream: URL;
  /** Where durable router state (the ledger) lives. */
  readonly stateDir: string;
  readonly logFormat: LogFormat;
  readonly logLevel: LogLevel;
  /** How long in-flight exchanges may run after SIGTERM/SIGINT before they are cut (default 30 s). */
  readonly shutdownGraceMs?: number;
  /** Ledger files of threads idle longer than this are removed; 0 never (default 30 days). */
  readonly ledgerRetentionMs?: number;
}

/** The defaults of --shutdown-grace and --ledger-retention (also what router.ts uses when an embedder leaves them out). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 30_000;
export const DEFAULT_LEDGER_RETENTION_MS = 30 * 86_400_000;
const DEFAULT_SHUTDOWN_GRACE = formatDuration(DEFAULT_SHUTDOWN_GRACE_MS);
export const DEFAULT_LEDGER_RETENTION = formatDuration(DEFAULT_LEDGER_RETENTION_MS);

export const USAGE = `usage: hpatch-router [--mode hpatch|passthrough] [--listen HOST:PORT] [--upstream URL] [--state-dir DIR]
                     [--log-format text|json] [--log-level error|warn|info|debug]
                     [--shutdown-grace DURATION] [--ledger-retention DURATION]
       hpatch-router doctor [--json] [--listen HOST:PORT] [--upstream URL] [--state-dir DIR]
       hpatch-router ledger stats|gc|show …   (hpatch-router ledger --help)
       hpatch-router interp [--posix] -c SCRIPT [NAME [ARG...]]
       hpatch-router interp [--posix] FILE [ARG...]
       hpatch-router plugins validate|list|new ...   (hpatch-router plugins --help)
       hpatch-router --help | --version

  --mode       hpatch (default) rewrites tools and history; passthrough forwards bytes unchanged
  --listen     address to listen on (default 127.0.0.1:8787; port 0 picks a free port)
  --upstream   Responses API base URL (default https://api.openai.com/v1)
  --state-dir  durable state such as the history ledger (default $XDG_STATE_HOME/hpatch-router
               or ~/.local/state/hpatch-router)
  --log-format text (default: one readable line per event) or json (one object per line)
  --log-level  error, warn, info (default: adds a line per request) or debug (adds one per translated call)
  --shutdown-grace    on SIGTERM/SIGINT, how long responses in flight may still run before they
                      are ended (default ${DEFAULT_SHUTDOWN_GRACE}); a second signal exits at once
  --ledger-retention  ledger files of threads idle longer than this are removed, at startup and
                      hourly (default ${DEFAULT_LEDGER_RETENTION}; 0 keeps everything)

  DURATION is a whole number with a unit: ms, s, m, h or d (e.g. 30s, 30d).

  exit status: 0 stopped by SIGINT/SIGTERM (or --help, --version); 1 the listener failed to close;
  2 cannot start (every problem is printed on stderr; nothing listens)
`;

export type ParsedArgs =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'run'; readonly options: RouterOptions }
  | { readonly kind: 'invalid'; readonly problems: readonly string[] };

export function parseRouterArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ParsedArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        mode: { type: 'string' },
        listen: { type: 'string' },
        upstream: { type: 'string' },
        'state-dir': { type: 'string' },
        'log-format': { type: 'string' },
        'log-level': { type: 'string' },
        'shutdown-grace': { type: 'string' },
        'ledger-retention': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    return { kind: 'invalid', problems: [(e as Error).message] };
  }
  if (values['help']) return { kind: 'help' };
  if (values['version']) return { kind: 'version' };
  const problems: string[] = [];

  const mode = (values['mode'] as string | undefined) ?? 'hpatch';
  if (mode !== 'hpatch' && mode !== 'passthrough') problems.push(`--mode must be "hpatch" or "passthrough", not "${mode}"`);

  const listen = parseListen((values['listen'] as string | undefined) ?? '127.0.0.1:8787');
  if (typeof listen === 'string') problems.push(listen);

  const upstreamText = (values['upstream'] as string | undefined) ?? 'https://api.openai.com/v1';
  let upstream: URL | undefined;
  try {
    upstream = new URL(upstreamText);
    if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') problems.push(`--upstream must be an http or https URL, not "${upstreamText}"`);
    else if (upstream.search || upstream.hash) problems.push(`--upstream must not have a query or fragment: "${upstreamText}"`);
  } catch {
    problems.push(`--upstream is not a URL: "${upstreamText}"`);
  }

  const stateDir = (values['state-dir'] as string | undefined) ?? defaultStateDir(env);
  if (stateDir === null) problems.push('no --state-dir given and neither XDG_STATE_HOME nor HOME is set');

  const logFormat = (values['log-format'] as string | undefined) ?? 'text';
  if (!(LOG_FORMATS as readonly string[]).includes(logFormat)) problems.push(`--log-format must be ${LOG_FORMATS.map((f) => `"${f}"`).join(' or ')}, not "${logFormat}"`);
  const logLevel = (values['log-level'] as string | undefined) ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) problems.push(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel}"`);
  const shutdownGraceMs = parseDuration('--shutdown-grace', (values['shutdown-grace'] as string | undefined) ?? DEFAULT_SHUTDOWN_GRACE);
  if (typeof shutdownGraceMs === 'string') problems.push(shutdownGraceMs);
  const ledgerRetentionMs = parseDuration('--ledger-retention', (values['ledger-retention'] as string | undefined) ?? DEFAULT_LEDGER_RETENTION);
  if (typeof ledgerRetentionMs === 'string') problems.push(ledgerRetentionMs);

  if (problems.length > 0 || typeof listen === 'string' || !upstream || stateDir === null || typeof shutdownGraceMs === 'string' || typeof ledgerRetentionMs === 'string') {
    return { kind: 'invalid', problems };
  }
  return { kind: 'run', options: { mode: mode as Mode, host: listen.host, port: listen.port, upstream, stateDir, logFormat: logFormat as LogFormat, logLevel: logLevel as LogLevel, shutdownGraceMs, ledgerRetentionMs } };
}

function parseListen(text: string): { host: string; port: number } | string {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  if (!m) return `--listen must be HOST:PORT (IPv6 as [ADDR]:PORT), not "${text}"`;
  const port = Number(m[3]);
  if (port > 65535) return `--listen port ${port} is out of range`;
  return { host: m[1] ?? m[2]!, port };
}

/** `$XDG_STATE_HOME/hpatch-router`, else `~/.local/state/hpatch-router`; null when neither is set. */
export function defaultStateDir(env: NodeJS.ProcessEnv): string | null {
  const xdg = env['XDG_STATE_HOME'];
  if (xdg && isAbsolute(xdg)) return join(xdg, 'hpatch-router');
  const home = env['HOME'];
  return home ? join(home, '.local', 'state', 'hpatch-router') : null;
}
