// The interpreter's strings are bytes (one char per byte, a latin1 view: doc/interpreter.md);
// these convert at the edges where Node wants UTF-8 text (argv, env, messages).
const ASCII_RE = /^[\x00-\x7f]*$/;

export function toBytes(s: string): string { return ASCII_RE.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1'); }

export function fromBytes(s: string): string { return ASCII_RE.test(s) ? s : Buffer.from(s, 'latin1').toString('utf8'); }
