// Canonical Bash quoting for the exec wrapper. The quoting itself is hpatch:core/v1's shellQuote
// (isolates/core-v1/shell-quote.ts), so a plugin quoting a word for its template gets exactly the
// text the wrapper would produce; here a word that cannot be carried becomes a CarrierInputError.
import { quoteWordAs } from '../../isolates/core-v1/shell-quote.ts';
import { CarrierInputError } from './carrier-errors.ts';

/** Quote one value as one Bash word. Throws CarrierInputError for NUL or lone surrogates. */
export function bashQuote(arg: string): string {
  return quoteWord(arg, 'value');
}

/** Quote every value independently and join with single spaces. */
export function bashQuoteArgv(argv: readonly string[]): string {
  return argv.map((arg, i) => quoteWord(arg, `argv[${i}]`)).join(' ');
}

function quoteWord(arg: string, label: string): string {
  if (typeof arg !== 'string') {
    // Translators are plugin JavaScript; a non-string is a programming error, not model input.
    throw new TypeError(`${label} is not a string`);
  }
  const q = quoteWordAs(arg, label);
  if (!q.ok) throw new CarrierInputError(q.error);
  return q.quoted;
}
