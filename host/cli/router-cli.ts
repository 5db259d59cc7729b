export async function runRouterCli(argv: readonly string[]): Promise<number | undefined> {
  process.stderr.write(`hpatch-router: not implemented yet (${argv.join(' ')})\n`);
  return 1;
}
