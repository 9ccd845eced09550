/**
 * oidc-provider, loaded once. At import it warns on stderr when `process.release.lts` is unset,
 * which it is on the Node 26 builds airkey is tested on and supports: that line would reach every
 * server start and every CLI verb's stderr (the CLI builds the same services). Only that one
 * warning is held back, and only while the module loads.
 */
const UNSUPPORTED_RUNTIME = 'oidc-provider WARNING: Unsupported runtime';

const warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes(UNSUPPORTED_RUNTIME)) return;
  warn(...args);
};
let loaded: typeof import('oidc-provider');
try {
  loaded = await import('oidc-provider');
} finally {
  console.warn = warn;
}

export const Provider = loaded.default;
export const errors = loaded.errors;
