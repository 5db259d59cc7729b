// The handlers a shell gets unless its embedder gives others (handlers.ts): external programs
// spawned for real (external.ts), redirections opened with open(2) (io.ts), and the private
// commands registered process-wide (private/registry.ts).
import type { Handlers } from './handlers.ts';
import { runExternal } from './external.ts';
import { openPath } from './io.ts';
import { getPrivateCommand } from '../private/registry.ts';

export const defaultHandlers: Handlers = {
  exec: runExternal,
  open: openPath,
  privateCommand: getPrivateCommand,
};
