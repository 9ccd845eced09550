/**
 * What src/mcp takes from the HTTP layer, in one place: the key check that runs in front of the MCP
 * SDK (the one import across adapters the architecture test allows), and the problem details every
 * refusal is written as, which live below both adapters.
 */
export { apiKeyHook } from '../http/api-key-auth.ts';
export { problemFor, problemOf, sendProblem } from '../problems/problem.ts';
