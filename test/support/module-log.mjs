// Preloaded with `node --import` (NODE_OPTIONS) by tests that ask which modules a process loaded:
// at exit, every CommonJS module in the cache (the OpenTelemetry SDK packages are all CommonJS,
// whether imported or required) is written to AIRKEY_MODULE_LOG, one path a line.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const cache = createRequire(import.meta.url).cache;
process.on('exit', () => writeFileSync(process.env.AIRKEY_MODULE_LOG, Object.keys(cache).join('\n')));
