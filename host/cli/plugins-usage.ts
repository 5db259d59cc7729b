// The `hpatch-router plugins` usage text, shared by its subcommands (plugins-cli.ts, plugins-new.ts).
export const PLUGINS_USAGE = `usage: hpatch-router plugins validate [--json] [FILE|DIR...]
       hpatch-router plugins list [--json] [FILE|DIR...]
       hpatch-router plugins new [--sdk SPEC] NAME

  validate  check plugin declarations exactly as router startup does (the configured plugin
            directory when no FILE or DIR is given); exit 0 valid, 1 problems, 2 usage
  list      the tools the router would expose: name, grammar, plugin id, version, file
  new       scaffold a TypeScript plugin project in ./NAME (NAME: a-z, 0-9, '-'); --sdk overrides
            the SDK dependency (default: the SDK tarball make install packed beside the router)
  --json    one JSON object on stdout instead of text
`;
