// Loads every builtin family, each registering its builtins in the table (table.ts), before a
// shell runs: imported once, by the place that builds shells (launch/cli.ts's newShell). The
// evaluator itself imports only the table.
import './flow.ts'; // :, true, false, exit, logout, return, break, continue, shift, eval, source/., exec, caller
import './variables.ts'; // variables and attributes: declare, typeset, local, export, readonly, unset
import './io.ts'; // echo, printf, read, mapfile/readarray
import './test.ts'; // test, [
import './directories.ts'; // cd, pwd, pushd, popd, dirs
import './shell-options.ts'; // set, shopt
import './jobs.ts'; // wait, jobs, fg, bg, disown, suspend, kill, trap, times
import './lookup.ts'; // type, command, builtin, hash, enable, help
import './completion.ts'; // compgen, complete, compopt, bind
import './getopts.ts'; // getopts
import './aliases.ts'; // alias, unalias
import './process-limits.ts'; // umask, ulimit
import './arithmetic.ts'; // let
import './history-builtins.ts'; // history, fc
