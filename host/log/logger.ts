// The operator's log on stderr: one line per event, as text for people or JSON (one object a line)
// for log shippers, filtered by level. doc/operations.md lists every field.
import { formatRequestLog, requestLogRecord, type RequestLogFields } from '../proxy/request-log.ts';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Where finished lines go (no trailing newline). */
export type LogSink = (line: string) => void;

export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

export interface Logger {
  /** Whether events of `level` are written (lets callers skip building debug fields). */
  enabled(level: LogLevel): boolean;
  /** The request line, at level info. */
  request(fields: RequestLogFields): void;
  event(level: LogLevel, msg: string, fields?: LogFields): void;
}

export const stderrSink: LogSink = (line) => process.stderr.write(`${line}\n`);

export interface LoggerOptions {
  readonly format?: LogFormat;
  readonly level?: LogLevel;
  readonly sink?: LogSink;
  readonly now?: () => Date;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const format = opts.format ?? 'text';
  const threshold = LOG_LEVELS.indexOf(opts.level ?? 'info');
  const sink = opts.sink ?? stderrSink;
  const now = opts.now ?? (() => new Date());
  const enabled = (level: LogLevel): boolean => LOG_LEVELS.indexOf(level) <= threshold;
  return {
    enabled,
    request(fields) {
      if (!enabled('info')) return;
      const time = now();
      sink(format === 'json' ? JSON.stringify({ time: time.toISOString(), level: 'info', msg: 'request', ...requestLogRecord(fields) }) : formatRequestLog(fields, time));
    },
    event(level, msg, fields = {}) {
      if (!enabled(level)) return;
      const time = now().toISOString();
      if (format === 'json') {
        sink(JSON.stringify({ time, level, msg, ...definedFields(fields) }));
        return;
      }
      const rest = Object.entries(definedFields(fields)).map(([k, v]) => ` ${k}=${typeof v === 'string' && /[\s"=]/.test(v) ? JSON.stringify(v) : String(v)}`).join('');
      sink(`${time} ${level === 'info' ? '' : `${level}: `}${msg}${rest}`);
    },
  };
}

/** A bare line sink (tests, embedders) as a text logger at level info. */
export function asLogger(log: Logger | LogSink): Logger {
  return typeof log === 'function' ? createLogger({ sink: log }) : log;
}

function definedFields(fields: LogFields): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return out;
}
