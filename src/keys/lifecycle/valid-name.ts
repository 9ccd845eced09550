import { InvalidRequestError } from '../../shared/errors.ts';
import { nameProblem } from '../../shared/text-rules.ts';

/** A key's name as given, trimmed, or a 400 naming the field. */
export function validName(raw: unknown): string {
  const problem = nameProblem(raw);
  if (problem) throw InvalidRequestError.field('name', problem);
  return (raw as string).trim();
}
