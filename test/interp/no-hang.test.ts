// Nothing hangs (issue 16, item 3): seeded scripts of builtins with unusual arguments (huge
// numbers, long flag, width and precision strings, deep nesting, odd option strings,
// unterminated things) and a fixed list of inputs that once hung run through bash and through
// the interpreter, each with a time limit. The test fails when the interpreter runs past the
// limit (or its process dies) where bash finishes within it. Output is not compared here (the
// differential corpus does that: fixtures/interp/no-hang.cases); only time.
//
// The interpreter runs in a child process (no-hang-driver.ts, in-process runScript as the
// differential harness does): a script spinning synchronously can only be stopped from outside.
// NOHANG_SEED=N picks another seed, NOHANG_COUNT=N another number of generated scripts.
import * as path from 'node:path';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { seededRandom } from '../support/prng.ts';
import { cleanEnv, freshDir } from './harness.ts';
import * as fs from 'node:fs';

const LIMIT_MS = 5000;
/** bash's own limit: a script bash needs longer for is left out (it costs the time of both limits). */
const BASH_LIMIT_MS = 2500;
const SEED = Number(process.env['NOHANG_SEED'] ?? 16003);
const COUNT = Number(process.env['NOHANG_COUNT'] ?? 400);
const VERBOSE = !!process.env['NOHANG_VERBOSE'];

/** A script for a report: long runs of one character or a short unit shown as `<unit×N>`. */
function shorten(s: string): string {
  return JSON.stringify(s).replace(/(.{1,8}?)\1{7,}/gs, (m, u: string) => `<${u}×${m.length / u.length}>`);
}

/** Inputs that hung or spun the interpreter (or ran it out of memory) where bash finishes at once. */
export const KNOWN_BAD: string[] = [
  // printf: widths and precisions (BigInt 10^precision, strings of the whole width)
  'printf "%0999999999d" 1 | head -c 10',
  'printf "%.99999999999f" 1',
  'printf "%.99999999f" 1 | head -c 10',
  'printf "%.9999999e|%.9999999g|%#.9999999G" 1 2 3 | head -c 10',
  'printf "%-+ #0000000000000000000000000000000005d" 1',
  'printf "%.2147483647d" 1 | head -c 10',
  'printf "%2147483648d|" 1',
  'printf "%*d" 99999999999 1 | head -c 10',
  'printf "%.*d" 2147483647 1 | head -c 10',
  'printf "%.*f" 99999999 1 | head -c 10',
  'printf "%999999999s" x | head -c 10',
  'printf "%99999999999b|" x | head -c 10',
  'printf "%.999999999s|" x',
  'printf -v v "%099999999d" 1; echo $? ${#v}',
  'printf "%(%999999999Y)T|" 0',
  'printf "%999999999(%Y)T|" 0 | head -c 10',
  'printf "%099999999999999999999999999999d|" 1',
  'printf "%.0999999999999999999999999999f|" 1',
  'printf "%s %04000000d\\n" a 1 b 2 c 3 | head -c 10',
  // patterns: the regex engine backtracking exponentially
  `x=$(printf "%030000d" 0); x=\${x//0/a}; [[ $x == ${'*a'.repeat(20)}b ]]; echo $?`,
  `x=$(printf "%03000d" 0); x=\${x//0/a}; echo "\${x%%${'*a'.repeat(20)}b}" | wc -c; case $x in ${'*a'.repeat(12)}b) ;; esac`,
  `x=$(printf "%03000d" 0); x=\${x//0/a}; y=\${x//${'*a'.repeat(12)}b/z}; echo \${#y}`,
  // a coprocess whose stdin an in-process job kept open
  'echo x | { coproc cat; cat <&${COPROC[0]} & exec {COPROC[1]}>&-; wait; }; echo $?',
  'coproc cat; { sleep 0; } & exec {COPROC[1]}>&-; wait; echo $?',
];

// ---- the generator -----------------------------------------------------------------------------

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const rep = (s: string, n: number): string => s.repeat(n);
/** Quoted for the script: single quotes, with `'` as `'\''`. */
const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

const HUGE = ['0', '1', '-1', '7', '-0', '077', '0x7f', '2147483647', '2147483648', '-2147483649', '4294967296',
  '9223372036854775807', '9223372036854775808', '-9223372036854775808', '-9223372036854775809',
  '18446744073709551616', '99999999999', '999999999', '99999999999999999999999999999999', '1e9', '0x', '08', '1.5',
  "'x", '+5', ' 12', '12 ', '', '--1', '10#99', '64#zz', '0xFFFFFFFFFFFFFFFFFF', '100000000', '2147483615'];

function num(r: Rand): string {
  if (r() < 0.15) return String(int(r, 0, 40));
  if (r() < 0.1) return rep('9', int(r, 1, 60));
  return pick(r, HUGE);
}

function printfDirective(r: Rand): string {
  const flags = r() < 0.3 ? rep(pick(r, ['-', '+', ' ', '#', '0', "'", '-+ #0']), int(r, 1, 40)) : pick(r, ['', '-', '0', '+', ' ', '#', "'"]);
  const width = r() < 0.15 ? '*' : r() < 0.5 ? '' : r() < 0.5 ? String(int(r, 0, 30)) : num(r).replace(/[^0-9]/g, '');
  const prec = r() < 0.4 ? '' : '.' + (r() < 0.2 ? '*' : r() < 0.3 ? '' : r() < 0.5 ? String(int(r, 0, 30)) : num(r).replace(/[^0-9-]/g, ''));
  const len = r() < 0.1 ? pick(r, ['h', 'l', 'll', 'L', 'j', 'z', 't', 'hh', 'lll']) : '';
  const conv = r() < 0.1 ? '(' + pick(r, ['%Y', '%s', `%${num(r).replace(/[^0-9]/g, '')}Y`, '%-9999d', rep('%c', 50), '']) + ')T'
    : r() < 0.05 ? pick(r, ['', 'y', '%', '!', '\\']) : pick(r, [...'diouxXeEfFgGcsbq', 'd', 'f', 's']);
  return '%' + flags + width + prec + len + conv;
}

function printfFormat(r: Rand): string {
  let f = '';
  const n = int(r, 1, 3);
  for (let k = 0; k < n; k++) {
    f += pick(r, ['', 'x', ' ', '|', '\\n', '\\t', '\\x', '\\u', '\\0', '\\777', '\\c', '\\', '%%', rep('\\', int(r, 1, 9))]);
    f += printfDirective(r);
  }
  if (r() < 0.2) f += pick(r, ['%', '%5', '%.', '%.*', '%-', '%(', '%(%Y', '\\']);
  return f;
}

function printfCase(r: Rand): string {
  const args: string[] = [];
  for (let k = int(r, 0, 4); k > 0; k--) args.push(r() < 0.6 ? num(r) : pick(r, ['abc', '\\x41\\c', '\\0101', '\\u263a', rep('\\', 30), "'", '"a', 'inf', '-nan', '1e4932', '0x1p-16445', '1e-5000', '0x1.fffp+16383', rep('1', 400), '.' + rep('0', 300) + '1']));
  const v = r() < 0.2 ? '-v v ' : '';
  return `printf ${v}${q(printfFormat(r))} ${args.map(q).join(' ')}${v ? '; echo ${#v}' : ''} | head -c 2000`;
}

function getoptsCase(r: Rand): string {
  const chars = ['a', 'b', ':', '?', '-', ';', '+', 'x', '\\', ' ', '*'];
  let spec = '';
  for (let k = int(r, 0, 12); k > 0; k--) spec += pick(r, chars);
  if (r() < 0.1) spec = rep(':', int(r, 1, 30));
  if (r() < 0.1) spec = rep('a:', int(r, 1, 200));
  const args: string[] = [];
  for (let k = int(r, 0, 6); k > 0; k--) {
    args.push(pick(r, ['-a', '-b', '-ab', '-ba', '--', '-', '-:', '-?', '-x', 'foo', '-a' + rep('b', int(r, 1, 40)), rep('-', int(r, 1, 20)), '-' + rep(':', 10), '', '-;', '-\\']));
  }
  const pre = r() < 0.3 ? `OPTIND=${q(num(r))}; ` : r() < 0.1 ? 'OPTERR=0; ' : '';
  const name = r() < 0.9 ? 'o' : pick(r, ['1x', '', 'a[1]', 'o-p']);
  // (bounded even where a name or OPTIND makes getopts misbehave: at most 1000 passes)
  return `${pre}n=0; while getopts ${q(spec)} ${q(name)} ${args.map(q).join(' ')} && ((n++ < 1000)); do :; done; echo $n $OPTIND "$OPTARG"`;
}

function readCase(r: Rand): string {
  const opt = pick(r, ['-n', '-N', '-t', '-u', '-d', '-p', '-a', '-e', '-i', '-s', '-r']);
  const val = pick(r, ['-r', '-d', '-n', '-N', '-t', '-u']).includes(opt) || r() < 0.5 ? num(r) : '';
  const input = pick(r, ['<<< ' + q('abc'), '< /dev/null', `<<< "$(printf '%0${int(r, 1, 200000)}d' 0)"`, '']);
  return pick(r, [
    `read ${opt} ${q(val)} x ${input}; echo $? "\${#x}"`,
    `mapfile ${pick(r, ['-n', '-O', '-s', '-c', '-C :', '-d', '-u', '-t'])} ${q(num(r))} a ${input}; echo $? "\${#a[@]}"`,
    `mapfile -C : -c ${q(num(r))} a < <(printf '%s\\n' {1..${int(r, 1, 3000)}}); echo $?`,
    `readarray -O ${q(num(r))} -n ${q(num(r))} a <<< $'a\\nb'; echo $? "\${!a[@]}"`,
  ]);
}

function arithExpr(r: Rand, depth: number): string {
  if (depth <= 0 || r() < 0.3) return pick(r, [num(r).replace(/[^0-9a-zA-Z#x]/g, '') || '1', 'x', 'y', 'a[3]', '2', rep('9', int(r, 1, 40)), '64#' + rep('@', int(r, 1, 30)), '36#zz', '2#' + rep('1', int(r, 1, 100)), '0' + rep('7', 30)]);
  const op = pick(r, ['**', '<<', '>>', '*', '/', '%', '+', '-', '&', '|', '^', '&&', '||', ',', '==', '<', '=', '+=', '**=', '<<=', '?:']);
  const a = arithExpr(r, depth - 1), b = arithExpr(r, depth - 1);
  if (op === '?:') return `(${a} ? ${b} : ${arithExpr(r, depth - 1)})`;
  if (op.endsWith('=') && op !== '==') return `(x ${op} ${b})`;
  return `(${a} ${op} ${b})`;
}

function arithCase(r: Rand): string {
  const nest = r() < 0.15 ? int(r, 50, 3000) : 0;
  const e = nest ? rep('(', nest) + '1' + rep(')', nest) : r() < 0.1 ? rep('-', int(r, 1, 3000)) + '1' : r() < 0.1 ? rep('!', int(r, 1, 3000)) + '1' : arithExpr(r, int(r, 1, 4));
  return pick(r, [
    `x=${q(num(r))}; y=3; a[3]=4; echo $(( ${e} ))`,
    `x=2; (( ${e} )); echo $?`,
    `x=1; let ${q(e)}; echo $? $x`,
    `declare -i z=${q(e)}; echo $z`,
    `a=(1 2 3); echo \${a[${e}]}`,
    `echo $(( ${rep('x+', int(r, 1, 5000))}1 ))`,
    `x=x; echo $(( x ))`,
    `x='y+1' y='x+1'; echo $(( x ))`,
    `echo $(( ${q(e)} ))`,
    `for (( i = 0; i < ${int(r, 0, 3)}; i += ${q(num(r))} )); do :; done; echo $i`,
  ]);
}

function expansionCase(r: Rand): string {
  const n = num(r), m = num(r);
  const deep = int(r, 2, 400);
  return pick(r, [
    `x=abcdef; echo "\${x:${n}}" "\${x:${n}:${m}}" "\${x: -${n.replace(/^-/, '')}}"`,
    `a=(1 2 3); a[${n}]=z; echo "\${a[@]:${m}:3}" "\${!a[@]}" "\${#a[@]}"`,
    `a=(1 2 3); a[${n}]=z; unset 'a[${m}]'; echo "\${a[@]}"; a+=(q); declare -p a`,
    `declare -A h; h[${q(n)}]=1; echo "\${!h[@]}"`,
    `echo {${n}..${m}..${num(r)}} | head -c 200`,
    `echo {a..${pick(r, ['z', 'Z', '~', '\\'])}..${q(num(r))}} | head -c 200`,
    `echo {0..${int(r, 0, 200000)}} | wc -c`,
    `x=${q(rep('a', int(r, 1, 100000)))}; y=\${x//a/bb}; echo \${#y}`,
    `x=${q(rep('ab', int(r, 1, 20000)))}; echo \${#x} \${x//?(a|b)/c} | head -c 50`,
    `x=${q(rep('a', int(r, 1, 30000)))}; [[ $x == ${rep('*a', int(r, 1, 30))}b ]]; echo $?`,
    `x=${q(rep('a', int(r, 1, 3000)))}; case $x in ${rep('*a', int(r, 1, 20))}b) echo m;; esac; echo \${x%%${rep('*a', int(r, 1, 20))}b}`,
    `x=1; echo "${rep('${x:-', deep)}q${rep('}', deep)}"`,
    `echo ${rep('$(', Math.min(deep, 60))}echo hi${rep(')', Math.min(deep, 60))}`,
    `echo "${rep('$((', Math.min(deep, 200))}1${rep('))', Math.min(deep, 200))}"`,
    `x=abc; echo "\${x^^${q(rep('[', int(r, 1, 200)))}}" "\${x/${rep('[', int(r, 1, 200))}/z}"`,
    `x=1; echo \${x@${pick(r, ['Q', 'E', 'P', 'A', 'a', 'K', 'k', 'U', 'u', 'L', 'z', ''])}}`,
    `set -- ${Array.from({ length: int(r, 0, 5) }, () => q(num(r))).join(' ')}; echo "\${@:${n}:${m}}" "\${*: -${int(r, 0, 9)}}"`,
    `x=abc; echo "\${!x}" "\${!${rep('x', int(r, 1, 50))}}"`,
    `declare -n r1=r2 r2=r1; echo "$r1"; r1=3; echo $?`,
    `declare -n r=${q(pick(r, ['a[' + n + ']', 'r', 'x[', '1', 'a[$(echo 1)]']))}; r=1; echo $? "$r"`,
  ]);
}

function nestingCase(r: Rand): string {
  const d = int(r, 10, 1500);
  return pick(r, [
    `[ ${rep('( ', d)}a${rep(' )', d)} ]; echo $?`,
    `test ${rep('! ', d)}a; echo $?`,
    `[[ ${rep('( ', Math.min(d, 500))}a${rep(' )', Math.min(d, 500))} ]]; echo $?`,
    `[[ ${rep('! ', d)}a ]]; echo $?`,
    `eval ${q(rep('eval ', Math.min(d, 400)) + 'echo hi')}`,
    `s='echo x'; for ((i=0;i<${Math.min(d, 12)};i++)); do s="eval $(printf %q "$s")"; done; eval "$s"`,
    `${rep('( ', Math.min(d, 200))}echo hi${rep(' )', Math.min(d, 200))}`,
    `${rep('{ ', Math.min(d, 300))}echo hi;${rep(' };', Math.min(d, 300))}`,
    `f0(){ echo end; }; for ((i=1;i<${Math.min(d, 900)};i++)); do eval "f$i(){ f$((i-1)); }"; done; f$((i-1))`,
    `f(){ (( $1 > 0 )) && f $(( $1 - 1 )); }; f ${Math.min(d, 1500)}; echo $?`,
    `echo 'n=$((n+1)); ((n < ${Math.min(d, 1500)})) && . ./s; :' > s; n=0; . ./s; echo $n`,
    `echo 'n=$((n+1)); ((n < ${Math.min(d, 200)})) && eval ". ./s"; :' > s; n=0; source ./s; echo $n`,
    `x=${q(rep('{a,b}', int(r, 1, 12)))}; eval "echo $x" | wc -c`,
    `echo ${rep('{a,', Math.min(d, 300))}b${rep('}', Math.min(d, 300))} | wc -c`,
    `alias a${d % 7}='a${d % 7}'; shopt -s expand_aliases; eval 'a${d % 7}' 2>/dev/null; echo $?`,
  ]);
}

function miscCase(r: Rand): string {
  const n = q(num(r)), m = q(num(r));
  return pick(r, [
    `shift ${n}; echo $?`, `set -- a b c; shift ${n}; echo $? $#`,
    `(exit ${n}); echo $?`, `f(){ return ${n}; }; f; echo $?`,
    `for i in 1 2; do for j in 1 2; do break ${n}; done; done; echo $?`,
    `for i in 1 2; do continue ${n}; done; echo $?`,
    `history -d ${n}; history ${n}; history -s x; history -d ${m}; echo $?`,
    `dirs ${pick(r, ['+', '-'])}${num(r)}; pushd ${pick(r, ['+', '-'])}${num(r)}; popd ${pick(r, ['+', '-'])}${num(r)}; echo $?`,
    `kill -l ${n}; kill -l ${q(rep('SIG', int(r, 1, 100)))}; echo $?`,
    `trap -- 'echo t' ${n} ${q(rep('SIG', int(r, 1, 60)) + 'INT')}; trap -p; echo $?`,
    `ulimit ${pick(r, ['-n', '-s', '-t', '-v', '-c', '-f', ''])} ${n}; echo $?; ulimit -a | head -c 100`,
    `umask ${q(pick(r, [num(r), 'u=' + rep('rwx', int(r, 1, 200)), rep('a+r,', int(r, 1, 300)) + 'g-w', rep('7', int(r, 1, 100)), 'u=rwx,,', '0' + num(r)]))}; echo $?; umask`,
    `caller ${n}; echo $?`, `f(){ caller ${n}; }; f; echo $?`,
    `jobs %${num(r)}; wait %${num(r)}; disown %${num(r)}; echo $?`,
    `wait ${n}; echo $?`, `wait -n; echo $?`,
    `hash -p /bin/true ${q(rep('x', int(r, 1, 1000)))}; hash -t ${q(rep('x', int(r, 1, 1000)))}; echo $?`,
    `type ${q(rep('-', int(r, 1, 40)))} ${q(rep('a', int(r, 1, 3000)))}; echo $?`,
    `help ${q(pick(r, ['*', '?', '[', rep('*', int(r, 1, 50)) + 'z', '\\', '[[', rep('?', 60)]))} | head -c 100; echo $?`,
    `compgen -W "$(printf '%s ' {1..${int(r, 1, 5000)}})" ${q(pick(r, ['1', '', '9', '*']))} | wc -l`,
    `compgen -A ${q(pick(r, ['function', 'variable', 'builtin', 'nosuch', 'alias', 'keyword', 'export']))} ${q(rep('*', int(r, 0, 40)))} | head -c 100; echo $?`,
    `declare -${pick(r, ['i', 'a', 'A', 'l', 'u', 'n', 'x', 'r', 'ilu', 'aA'])} z=${n}; echo $?; declare -p z`,
    `shopt -${pick(r, ['s', 'u', 'q', 'p', 'o'])} ${q(rep('x', int(r, 1, 300)))}; echo $?`,
    `set -${rep(pick(r, ['e', 'u', 'x', 'o', '-', 'z', 'f', 'B']), int(r, 1, 50))}; echo $?`,
    `set -o ${q(rep('a', int(r, 1, 500)))}; echo $?`,
    `enable ${pick(r, ['-n', '-a', '-p', '-s', '-f x'])} ${q(rep('e', int(r, 1, 100)))}; echo $?`,
    `echo -e ${q(rep(pick(r, ['\\x', '\\0', '\\u', '\\U', '\\c', '\\\\', '\\777', '\\U' + rep('F', 8)]), int(r, 1, 3000)))} | wc -c`,
    `echo ${rep('-n', int(r, 1, 3000))} x`,
    `alias ${q(rep('=', int(r, 1, 20)))} ${q('x=' + rep("'", int(r, 1, 20)))}; alias -p | head -c 100; echo $?`,
    `cd ${q(rep('../', int(r, 1, 2000)))}; echo $?; cd ${q(rep('x', 5000))}; echo $?`,
    `pwd ${pick(r, ['-L', '-P', '-X', '--', rep('-', 30)])}; echo $?`,
    `times ${n}; echo $?`, `command ${q(rep('-', int(r, 1, 30)))} ${pick(r, ['-v', '-V', '-p'])} echo; echo $?`,
    `builtin ${q(rep('x', int(r, 1, 300)))}; echo $?`,
    `exec ${num(r).replace(/[^0-9]/g, '') || '5'}>&-; echo $?`,
    `exec {fd}>/dev/null; echo $? $fd; exec {fd}>&-`,
    `echo x >&${num(r).replace(/[^0-9]/g, '') || '1'}; echo $?`,
    `cat <&${num(r).replace(/[^0-9]/g, '') || '1'}; echo $?`,
    `test ${n} -eq ${m}; echo $?; [ ${n} -lt ${m} ]; echo $?; [[ ${n} -gt ${m} ]]; echo $?`,
    `[ -t ${n} ]; echo $?; test -v ${q(rep('a', 300) + '[')}; echo $?`,
    `let ${q(rep('x++,', int(r, 1, 3000)) + 'x')}; echo $x`,
    `eval ${q(pick(r, ['(', '$(', '${', '"', "'", '`', 'case x in', 'if', '[[ a', '$((', '<<E', 'f(){', 'for', '{', '`(`']))}; echo $?`,
    `source ${q(pick(r, ['/dev/null', '', '.', '..', '/', 'nofile', rep('x', 5000)]))} ${n}; echo $?`,
    `printf -v ${q(pick(r, ['a[' + rep('[', 100), 'x', '1', 'a[' + num(r) + ']', rep('v', 3000)]))} %s 1; echo $?`,
    `read -r -a a <<< "$(printf '%s ' {1..${int(r, 1, 20000)}})"; echo \${#a[@]}`,
    `x=$(printf '%0${int(r, 1, 5000000)}d' 0); echo \${#x}`,
    `printf '%s\\n' {1..${int(r, 1, 30000)}} | while read -r l; do :; done; echo $l`,
  ]);
}

function procCase(r: Rand): string {
  const k = int(r, 1, 60);
  return pick(r, [
    `coproc cat; echo hi >&\${COPROC[1]}; exec {COPROC[1]}>&-; read -r l <&\${COPROC[0]}; echo $l; wait`,
    `coproc { echo out; }; read -r l <&\${COPROC[0]}; echo "$l"; wait $COPROC_PID; echo $?`,
    `coproc x { exit 3; }; wait $x_PID; echo $?`,
    `coproc a { :; }; coproc b { :; }; wait; echo done`,
    `coproc cat; exec {COPROC[1]}>&-; wait; echo $?`,
    `coproc { read -r l; echo "<$l>"; }; echo x >&\${COPROC[1]}; read -r z <&\${COPROC[0]}; echo "$z"`,
    `coproc sleep 0; wait; echo ok`,
    `coproc ${q(rep('x', int(r, 1, 50)))} { :; }; wait; echo $?`,
    `cat ${rep('<(echo x) ', k)} | wc -l`,
    `cat <(cat <(cat <(echo deep))); echo $?`,
    `echo ${rep('$(cat <(echo x))', Math.min(k, 20))} | wc -c`,
    `exec 3< <(printf '%s\\n' a b c); read -r l <&3; echo $l; exec 3<&-`,
    `read -r l < <(echo x); echo $l; wait $!; echo $?`,
    `: > >(cat); echo $?; wait`,
    `echo >(exit 3) >/dev/null; wait $!; echo $?`,
    `mapfile -t a < <(printf '%s\\n' {1..${int(r, 1, 3000)}}); echo \${#a[@]}`,
    `exec {fd}< <(echo x); read -r l <&$fd; echo $l; exec {fd}<&-`,
    `while read -r l; do echo $l; done < <(printf '%s\\n' {1..${int(r, 1, 2000)}}) | tail -1`,
    `diff <(printf '%s\\n' a b) <(printf '%s\\n' a c) >/dev/null; echo $?`,
    `source <(echo 'echo sourced'); . <(:); echo $?`,
    `source <(printf 'echo %s\\n' {1..${int(r, 1, 500)}}) | tail -1`,
    `source /dev/stdin <<< 'echo stdin'; echo $?`,
    `echo 'echo $1 $#' > s; source s ${rep('a ', k)}; . ./s; echo $?`,
    `{ echo 'return 3'; echo 'echo no'; } > s; . ./s; echo $?`,
    `echo '. <(echo echo inner)' > s; . ./s; echo $?`,
    `x=$(coproc cat; echo in); echo $x`,
    `(echo a; echo b) | (read -r l; echo $l; cat) | wc -l`,
    `echo x | { coproc cat; cat <&\${COPROC[0]} & exec {COPROC[1]}>&-; wait; }; echo $?`,
    `for i in {1..${Math.min(k, 30)}}; do : <(:) >(:); done; wait; echo ok`,
    `( : & : & wait ); echo $?; { sleep 0 & } ; wait; echo $?`,
    `tee >(wc -c) >(wc -l) < /dev/null >/dev/null; wait; echo ok`,
  ]);
}

/** A script cut short, or with an odd byte put in: unterminated quotes, substitutions, here-documents. */
function unterminated(r: Rand, s: string): string {
  const tails = ['"', "'", '$(', '${', '$((', '`', '<<E', '<<"E"\nx', "$'", '\\', '[[', '((', 'case x in', '{', 'if :; then', '<(', '$[', '${x/', '${x:'];
  if (r() < 0.5) return s.slice(0, int(r, 1, s.length)) + pick(r, tails);
  const at = int(r, 0, s.length);
  return s.slice(0, at) + pick(r, tails) + s.slice(at);
}

export function generate(seed: number, count: number): string[] {
  const r = seededRandom(seed);
  const gens = [printfCase, printfCase, printfCase, getoptsCase, getoptsCase, readCase, arithCase, arithCase, expansionCase, expansionCase, nestingCase, miscCase, miscCase, miscCase, procCase];
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    let s = pick(r, gens)(r);
    if (r() < 0.08) s = unterminated(r, s);
    out.push(s);
  }
  return out;
}

// ---- running -----------------------------------------------------------------------------------

interface Timing { ms: number; timedOut: boolean; status: number | null; signal: string | null; stderr: string }

function runBash(script: string): Promise<Timing> {
  const dir = freshDir();
  return new Promise((resolve) => {
    const t0 = Date.now();
    // (stdout to /dev/null: a script may print gigabytes; its own process group, killed whole)
    const child = spawn('bash', ['-c', script, 'bash'], { cwd: dir, env: cleanEnv(dir), stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '';
    child.stderr!.on('data', (b: Buffer) => { if (stderr.length < 2000) stderr += b.toString('latin1'); });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, BASH_LIMIT_MS);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      // (a job it left behind, if any)
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ }
      fs.rmSync(dir, { recursive: true, force: true });
      resolve({ ms: Date.now() - t0, timedOut, status, signal, stderr: stderr.slice(0, 2000) });
    });
  });
}

/** The interpreter in a child process, restarted after a script it had to be killed for. */
class Driver {
  private child: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private nextId = 1;
  private pending: { id: number; resolve: (t: Timing) => void } | undefined;
  starts = 0;

  private start(): Promise<void> {
    this.starts++;
    const child = fork(path.resolve('test/interp/no-hang-driver.ts'), [], {
      execArgv: ['--import', 'tsx', '--max-old-space-size=2048'], stdio: ['ignore', 'ignore', 'ignore', 'ipc'], cwd: path.resolve('.'),
    });
    this.child = child;
    child.on('error', () => { /* (a send to a driver that just died: its exit reports it) */ });
    return new Promise((resolve, reject) => {
      child.on('message', (m: { ready?: boolean; id?: number; status?: number; stderr?: string; ms?: number }) => {
        if (m.ready) { resolve(); return; }
        const p = this.pending;
        if (p && p.id === m.id) { this.pending = undefined; p.resolve({ ms: m.ms!, timedOut: false, status: m.status!, signal: null, stderr: m.stderr! }); }
      });
      child.on('exit', (status, signal) => {
        if (this.child === child) { this.child = undefined; this.ready = undefined; }
        const p = this.pending;
        if (p) { this.pending = undefined; p.resolve({ ms: -1, timedOut: false, status, signal, stderr: `(the interpreter's process died: ${signal ?? status})` }); }
        reject(new Error(`driver exited: ${signal ?? status}`));
      });
    });
  }

  async run(script: string): Promise<Timing> {
    this.ready ??= this.start();
    await this.ready;
    const child = this.child!;
    const id = this.nextId++;
    return new Promise((resolve) => {
      const t0 = Date.now();
      const timer = setTimeout(() => {
        if (this.pending?.id !== id) return;
        this.pending = undefined;
        if (this.child === child) { this.child = undefined; this.ready = undefined; }
        child.kill('SIGKILL');
        resolve({ ms: Date.now() - t0, timedOut: true, status: null, signal: 'SIGKILL', stderr: '' });
      }, LIMIT_MS);
      this.pending = { id, resolve: (t) => { clearTimeout(timer); resolve(t.ms < 0 ? { ...t, ms: Date.now() - t0 } : t); } };
      child.send({ id, script });
    });
  }

  stop(): void { this.child?.kill('SIGKILL'); this.child = undefined; }
}

describe('interp: nothing hangs (vs bash, time limit per script)', function () {
  this.timeout(240000);
  const driver = new Driver();
  after(() => driver.stop());

  async function check(scripts: string[], label: string): Promise<void> {
    const failures: string[] = [];
    const slow: string[] = [];
    let bashTimeouts = 0;
    const t0 = Date.now();
    for (const s of scripts) {
      const [b, i] = await Promise.all([runBash(s), driver.run(s)]);
      if (VERBOSE) console.log(`      bash ${b.timedOut ? 'timeout' : b.ms + ' ms'}, interp ${i.timedOut ? 'timeout' : i.ms + ' ms'} (${i.status}): ${shorten(s).slice(0, 200)}`);
      if (b.timedOut) { bashTimeouts++; continue; }
      const died = i.status === null || i.status === -1;
      if (i.timedOut || died) {
        failures.push(`${i.timedOut ? `ran past ${LIMIT_MS} ms` : `died (${i.signal ?? i.status})`} where bash took ${b.ms} ms (status ${b.signal ?? b.status}):\n    ${shorten(s).slice(0, 600)}\n    interp stderr: ${JSON.stringify(i.stderr.slice(0, 300))}`);
      } else if (i.ms > 1000 && i.ms > 10 * b.ms) slow.push(`${i.ms} ms (bash ${b.ms} ms): ${shorten(s).slice(0, 200)}`);
    }
    console.log(`      ${label}: ${scripts.length} scripts in ${((Date.now() - t0) / 1000).toFixed(1)} s; bash ran past the limit in ${bashTimeouts}; interpreter restarts ${driver.starts - 1}`);
    for (const x of slow) console.log(`      slow: ${x}`);
    expect(failures, failures.join('\n')).to.deep.equal([]);
  }

  it('the inputs known to have hung', () => check(KNOWN_BAD, 'known'));
  it(`seeded scripts (seed ${SEED}, ${COUNT} scripts)`, () => {
    console.log(`      seed ${SEED} (NOHANG_SEED=${SEED} to reproduce)`);
    return check(generate(SEED, COUNT), 'generated');
  });
});
