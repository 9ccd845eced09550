import { readFileSync } from 'node:fs';

/** One instruction of a Dockerfile: its keyword, and the rest with continuation lines joined. */
export type Instruction = { keyword: string; rest: string };

export type Stage = { from: string; name: string | undefined; instructions: Instruction[] };

/** The stages of a Dockerfile, read as Docker reads them (comments dropped, `\` continuations joined). */
export function stagesOf(path: string): Stage[] {
  const text = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  const stages: Stage[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, keyword, rest] = match as unknown as [string, string, string];
    if (keyword === 'FROM') {
      const [from, , name] = rest.trim().split(/\s+/);
      stages.push({ from: from!, name, instructions: [] });
    } else stages.at(-1)?.instructions.push({ keyword, rest: rest.trim() });
  }
  return stages;
}

/** `KEY=value KEY2=value2` of an ENV instruction. */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { rest } of stage.instructions.filter((instruction) => instruction.keyword === 'ENV'))
    for (const pair of rest.split(/\s+/)) {
      const [key, ...value] = pair.split('=');
      env[key!] = value.join('=');
    }
  return env;
}

/** The argument list of an exec-form CMD (or HEALTHCHECK … CMD). */
export function execForm(rest: string): string[] {
  const json = rest.slice(rest.indexOf('['));
  return JSON.parse(json) as string[];
}

export function only(stage: Stage, keyword: string): Instruction[] {
  return stage.instructions.filter((instruction) => instruction.keyword === keyword);
}
