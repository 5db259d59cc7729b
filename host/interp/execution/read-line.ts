// Reading one record (up to a delimiter, or a number of characters) from a shell fd, byte by
// byte as bash's read builtin does: for read and mapfile, and for the evaluator's `select`.
import type { Shell } from './runner.ts';
import { ExitSignal, ShellError } from './errors.ts';
import { readSome, readByteSync, AGAIN, TIMEOUT } from './io.ts';
import { sequenceLength } from '../words/utf8-chars.ts';

export class ReadTimeout extends Error { constructor(readonly partial: string) { super('timeout'); } }

/** Reads one record ending in `delim` from fd n, byte by byte. Null at EOF with nothing read. */
export async function readLine(sh: Shell, n: number, delim: string, max = -1, raw = true, deadline?: number, skipNul = false): Promise<{ text: string; eof: boolean } | null> {
  const f = sh.fds.get(n);
  if (!f) throw new ShellError(`${n}: invalid file descriptor: Bad file descriptor`, 1);
  if (raw && max < 0 && delim.length === 1 && f.rbuf !== undefined) {
    // a whole line already read ahead (see OsFd.readAhead): the same as the loop below
    const t = f.takeLineAhead(delim.charCodeAt(0));
    if (t !== undefined) return { text: skipNul && delim !== '\0' && t.includes('\0') ? t.replace(/\0/g, '') : t, eof: false };
  }
  let text = '';
  let count = 0;
  // -n/-N count characters: in a UTF-8 locale the bytes that continue a multibyte one are not counted
  const utf8 = max >= 0 && sh.vars.utf8Locale();
  let cont = 0, sinceYield = 0;
  for (;;) {
    if (max >= 0 && count >= max && cont === 0) return { text, eof: false };
    // input that never runs dry (/dev/zero) is read without waiting: every 64 KiB, the deadline
    // of -t, and a turn of the event loop so that cancellation gets through
    if (++sinceYield >= 65536) {
      sinceYield = 0;
      if (deadline !== undefined && Date.now() >= deadline) throw new ReadTimeout(text);
      await new Promise((r) => setImmediate(r));
      if (sh.cancelStatus.value !== 0) throw new ExitSignal(sh.cancelStatus.value);
    }
    let byte = readByteSync(f);
    if (byte === AGAIN) {
      const r = await readSome(f, 1, deadline);
      if (r === TIMEOUT) throw new ReadTimeout(text);
      byte = r ? r[0]! : null;
    }
    const b = byte === null ? null : [byte];
    if (!b) return text === '' ? null : { text, eof: true };
    if (cont > 0) {
      // (a byte that does not continue the character still ends it, as in bash)
      cont = b[0]! >= 0x80 && b[0]! <= 0xbf ? cont - 1 : 0;
      text += String.fromCharCode(b[0]!);
      continue;
    }
    if (utf8) cont = sequenceLength(b[0]!) - 1;
    const c = String.fromCharCode(b[0]!);
    if (skipNul && c === '\0' && delim !== '\0') continue; // `read` drops NUL bytes (not counted by -n)
    if (!raw && c === '\\') {
      let b2n = readByteSync(f);
      if (b2n === AGAIN) { const r2 = await readSome(f, 1); b2n = r2 ? r2[0]! : null; }
      const b2 = b2n === null ? null : [b2n];
      if (!b2) return { text, eof: true };
      const c2 = String.fromCharCode(b2[0]!);
      if (c2 === '\n') continue;
      text += '\\' + c2;
      count++;
      if (utf8) cont = sequenceLength(b2[0]!) - 1;
      continue;
    }
    if (c === delim && max < 0) return { text, eof: false };
    if (c === delim && delim !== '' ) return { text, eof: false };
    text += c;
    count++;
  }
}
