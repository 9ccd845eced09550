/**
 * What must never be written out: the redaction rules every writer shares (log lines, spans,
 * error details), so a key is scrubbed the same way wherever it would leave the process.
 */

const API_KEY_PARAM = /(^|&)api_key=([^&]*)/g;
// Anything shaped like a key, whatever parameter or path segment carries it.
const KEY_SHAPED = /ask_[A-Za-z0-9]{64}/g;

/** For any string that might still hold a key in a query (defence in depth for log serializers). */
export function scrubUrl(url: string): string {
  // Both patterns need one of these substrings; nearly every URL has neither (no regex run).
  if (!url.includes('ask_') && !url.includes('api_key=')) return url;
  return url.replace(API_KEY_PARAM, '$1api_key=[REDACTED]').replace(KEY_SHAPED, 'ask_[REDACTED]');
}

/** Headers that carry credentials; redacted in every log line, errors included. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  'secret',
  '*.secret',
  'password',
  '*.password',
];
