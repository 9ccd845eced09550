/**
 * Everything src/mcp takes from the HTTP layer, in one place: the key check that runs in front of
 * the MCP SDK and the problem details every refusal is written as.
 */
export { apiKeyHook } from '../http/api-key-auth.ts';
export { problemFor, problemOf, sendProblem } from '../http/problem.ts';
