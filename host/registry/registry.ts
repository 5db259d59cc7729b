// The tool registry: every contributed tool, by model-visible name. Built once at startup and
// immutable for the process lifetime (REQ-PLUGIN-001): the data path only reads it.
import type { Contribution } from './contribution.ts';
import { CODEX_RESERVED_NAMES, TOOL_NAME } from './tool-names.ts';


export class RegistryError extends Error {
  override readonly name = 'RegistryError';
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

export class ToolRegistry {
  /** Contributions in registration order; the registry is immutable, so this is computed once. */
  private readonly all: readonly Contribution[];
  /** Whether any contribution takes over the apply_patch editing surface. */
  readonly supersedesApplyPatch: boolean;
  /** Whether any contribution takes over exec_command as the documented way to run commands. */
  readonly supersedesExecCommand: boolean;

  private constructor(readonly byName: ReadonlyMap<string, Contribution>) {
    this.all = Object.freeze([...byName.values()]);
    this.supersedesApplyPatch = this.all.some((c) => c.supersedes?.applyPatch === true);
    this.supersedesExecCommand = this.all.some((c) => c.supersedes?.execCommand === true);
  }

  static readonly empty = new ToolRegistry(new Map());

  /** Validates the complete set; every problem is reported together and nothing partial is returned. */
  static create(contributions: readonly Contribution[]): ToolRegistry {
    const problems: string[] = [];
    const byName = new Map<string, Contribution>();
    for (const c of contributions) {
      if (!TOOL_NAME.test(c.name)) problems.push(`tool name "${c.name}" is not a valid tool name`);
      else if (CODEX_RESERVED_NAMES.has(c.name)) problems.push(`tool name "${c.name}" is reserved by Codex`);
      const prior = byName.get(c.name);
      if (prior) problems.push(`duplicate tool name "${c.name}" (${describe(prior)} and ${describe(c)})`);
      else byName.set(c.name, c);
    }
    if (problems.length > 0) throw new RegistryError(problems);
    return new ToolRegistry(byName);
  }

  get(name: string): Contribution | undefined {
    return this.byName.get(name);
  }

  get size(): number {
    return this.byName.size;
  }

  list(): readonly Contribution[] {
    return this.all;
  }
}

function describe(c: Contribution): string {
  switch (c.source.kind) {
    case 'builtin': return 'built-in';
    case 'plugin': return `plugin ${c.source.pluginId} (${c.source.file})`;
    case 'test': return `test suite ${c.source.suite}`;
  }
}
