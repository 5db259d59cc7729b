// Where plugin declarations live (REQ-PLUGIN-001, brief §5): `<user config dir>/hpatch/plugins`.
// Mirrors Go's os.UserConfigDir; the environment is read per call (never at import time) so that
// tests and the CLI see the same rules with different environments.
import { posix, win32 } from 'node:path';

export class ConfigDirError extends Error {
  override readonly name = 'ConfigDirError';
}

type Env = Readonly<Record<string, string | undefined>>;

/** The platform user configuration directory; throws ConfigDirError when it cannot be determined. */
export function userConfigDir(env: Env, platform: NodeJS.Platform): string {
  switch (platform) {
    case 'win32': {
      const appData = env['APPDATA'];
      if (!appData) throw new ConfigDirError('%APPDATA% is not set');
      return appData;
    }
    case 'darwin': {
      const home = env['HOME'];
      if (!home) throw new ConfigDirError('$HOME is not set');
      return posix.join(home, 'Library', 'Application Support');
    }
    default: {
      // Linux, the BSDs and other Unix: a relative XDG_CONFIG_HOME is ignored, as the XDG spec says.
      const xdg = env['XDG_CONFIG_HOME'];
      if (xdg && posix.isAbsolute(xdg)) return xdg;
      const home = env['HOME'];
      if (!home) throw new ConfigDirError('neither $XDG_CONFIG_HOME nor $HOME is set');
      return posix.join(home, '.config');
    }
  }
}

/** `<user config dir>/hpatch/plugins`, joined with the platform's separator. */
export function pluginDirectory(env: Env, platform: NodeJS.Platform): string {
  const base = userConfigDir(env, platform);
  return (platform === 'win32' ? win32 : posix).join(base, 'hpatch', 'plugins');
}
