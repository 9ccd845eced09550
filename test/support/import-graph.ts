import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

type MadgeResult = { circular(): string[][]; obj(): Record<string, string[]> };
type Madge = (paths: string[], config: Record<string, unknown>) => Promise<MadgeResult>;
// madge ships CommonJS without types.
export const madge = createRequire(import.meta.url)('madge') as Madge;

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** src-relative file → src-relative files it imports (the house rules read this graph). */
export async function importGraphOfSrc(): Promise<Record<string, string[]>> {
  return (
    await madge(['src'], { baseDir: `${ROOT}src`, fileExtensions: ['ts'], tsConfig: `${ROOT}tsconfig.json` })
  ).obj();
}

/** `keys/check/decide.ts` → `keys`. */
export const folderOf = (file: string) => file.split('/')[0]!;
/** `keys/check/decide.ts` → `keys/check`; a file at the root of src/keys → `keys`. */
export const roomOf = (file: string) => file.split('/').slice(0, -1).join('/');
