// A shell name (an identifier: variables, functions' plain names, `{fd}` redirections, for-loop
// variables): a letter or underscore, then letters, digits and underscores. ASCII only, as bash.
const NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function isName(s: string): boolean { return NAME.test(s); }
