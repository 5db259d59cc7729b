// Loads every builtin family, each registering its builtins in the table (table.ts), before a
// shell runs: imported once, by the place that builds shells (launch/cli.ts's newShell). The
// evaluator itself imports only the table.
import './builtins.ts';
import './history-builtins.ts';
