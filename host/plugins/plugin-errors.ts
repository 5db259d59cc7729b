// Errors of the plugin host. Both carry the declaration file so that every report is attributed.

/** A declaration could not be loaded: compile, import, evaluation or describe failure. */
export class PluginLoadError extends Error {
  constructor(message: string, readonly file: string, readonly line?: number, readonly column?: number) {
    super(message);
    this.name = 'PluginLoadError';
  }
}

/**
 * Why a call into a plugin failed:
 * - timeout: the call exceeded its CPU/wall budget (the isolate survives, or is replaced if it stays busy);
 * - memory: the isolate hit its memory limit and was disposed (the next call reloads it);
 * - threw: plugin code threw;
 * - protocol: the plugin answered something the API does not allow;
 * - disabled: the tool or plugin was disabled after repeated memory/reload failures, or the host was disposed.
 */
export type PluginCallFailure = 'timeout' | 'memory' | 'threw' | 'protocol' | 'disabled';

export class PluginCallError extends Error {
  constructor(message: string, readonly kind: PluginCallFailure, readonly pluginFile: string, readonly tool?: string) {
    super(message);
    this.name = 'PluginCallError';
  }
}
