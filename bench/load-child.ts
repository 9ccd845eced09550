/**
 * Runs one autocannon load in its own process and reports the sample: two loads in one process
 * share its event loop, and the bigger one starves the other (the flood's 200 connections left
 * the valid key's 10 with nothing but timeouts). Same client address either way.
 */
import { load, type Load } from './measure.ts';

const spec = await new Promise<Load>((resolve) => process.once('message', (message) => resolve(message as Load)));
// Ready, then wait for the go, so the parent can start its own load at the same instant.
process.send?.('ready');
await new Promise((resolve) => process.once('message', resolve));
process.send?.(await load(spec), () => process.exit(0));
