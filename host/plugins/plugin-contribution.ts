// One validated plugin tool as a registry Contribution. The model-visible spec is exactly the
// declared object; translation calls the plugin's isolate and turns its answer into an exec
// carrier request whose worker command is the tool's basename frontend followed by the parsed argv.
import type { AvailableCarriers, CarrierKind } from '../carriers/carrier.ts';
import type { Contribution, CustomToolSpec, TranslateContext, TranslateOutcome } from '../registry/contribution.ts';
import type { DeclarationDescription, DeclaredTool } from './declaration-schema.ts';
import type { PluginIsolate } from './isolate.ts';

/** The part of PluginIsolate a contribution uses. */
export type TranslatingIsolate = Pick<PluginIsolate, 'file' | 'translate'>;

export function pluginContributions(description: DeclarationDescription, isolate: TranslatingIsolate): Contribution[] {
  return description.tools.map((tool) => pluginContribution(description.id, tool, isolate));
}

export function pluginContribution(pluginId: string, tool: DeclaredTool, isolate: TranslatingIsolate): Contribution {
  const spec = deepFreeze(structuredClone(tool.spec)) as CustomToolSpec;
  const name = spec.name;
  const file = isolate.file;
  const limit = tool.inputLimit;
  return {
    name,
    source: Object.freeze({ kind: 'plugin', pluginId, file }),
    // The same frozen object every time: the exact declared custom tool, independent of the request.
    toolSpec: () => spec,
    async translate(input: string, ctx: TranslateContext): Promise<TranslateOutcome> {
      const bytes = Buffer.byteLength(input, 'utf8');
      // Checked before the plugin sees the input: the declared bound is the router's to enforce.
      if (bytes > limit) return { kind: 'diagnostic', message: `input is ${bytes} bytes of UTF-8; this tool accepts at most ${limit}` };
      let answer: Awaited<ReturnType<TranslatingIsolate['translate']>>;
      try {
        answer = await isolate.translate({ tool: name, input, carriers: carrierKinds(ctx.carriers), threadId: ctx.threadId });
      } catch (e) {
        throw attributed(e, file, name);
      }
      switch (answer.kind) {
        case 'reject':
          return { kind: 'diagnostic', message: answer.message };
        case 'exec': {
          const { argv, template, params, carrier } = answer;
          return {
            kind: 'carrier',
            // The exec wrapper validates argv, template and params; anything wrong there is a routing failure.
            request: {
              kind: 'exec',
              // A carrier the request lacks is refused by the exec wrapper: a routing failure, never a substitute.
              ...(carrier !== undefined ? { via: carrier } : {}),
              command: { argv: [name, ...argv] },
              ...(template !== undefined ? { template } : {}),
              ...(params !== undefined ? { params } : {}),
            },
          };
        }
        default:
          throw new Error(`${file}: tool "${name}": the plugin host returned an answer of kind ${JSON.stringify((answer as { kind?: unknown }).kind)}`);
      }
    },
  };
}

/** Carrier kinds the request offers, its primary first. */
function carrierKinds(carriers: AvailableCarriers): CarrierKind[] {
  const kinds: CarrierKind[] = [carriers.primary];
  for (const k of ['exec_command', 'code_mode_exec'] as const) if (k !== carriers.primary && carriers[k] !== undefined) kinds.push(k);
  return kinds;
}

// The routing failure names the contribution identity (plugin id and tool); the file is added here
// unless the plugin host's message already carries it.
function attributed(e: unknown, file: string, tool: string): Error {
  const message = e instanceof Error ? e.message : String(e);
  if (message.includes(file)) return e instanceof Error ? e : new Error(message);
  return new Error(`${file}: tool "${tool}": ${message}`, { cause: e });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
