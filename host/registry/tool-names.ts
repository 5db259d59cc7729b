// Who may be called what. Shared by the registry, plugin validation and the executor runtime, so
// the name rules cannot drift apart (a frontend is a file named after its tool: the pattern is also
// what keeps a name a single safe path component).

/** Source of the contributed tool name pattern (also used in the declaration JSON schema). */
export const TOOL_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]{0,63}$';
export const TOOL_NAME = new RegExp(TOOL_NAME_PATTERN);

/** Tool names Codex owns in the requests the router rewrites. */
export const CODEX_RESERVED_NAMES: ReadonlySet<string> = new Set(['exec', 'exec_command', 'write_stdin', 'apply_patch', 'wait']);

/** The router's own tool and private command names (built-in shell and hpatch): never plugin frontends. */
export const ROUTER_RESERVED_NAMES: ReadonlySet<string> = new Set(['shell', 'hread', 'hgrep', 'hsymbol', 'inspect_file', 'hpatch']);
