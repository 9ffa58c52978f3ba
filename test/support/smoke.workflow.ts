/** Trivial workflow for the Temporal smoke test: proves a real Worker runs workflow code. */
import { defineQuery, setHandler } from '@temporalio/workflow';

/** Name of the smoke workflow's query, returns the number of greetings built so far. */
export const greetingsQuery = defineQuery<number>('greetings');

/** Returns `Hello, <name>!` for each name, in order. */
export async function smokeWorkflow(names: string[]): Promise<string[]> {
  let built = 0;
  setHandler(greetingsQuery, () => built);
  const greetings: string[] = [];
  for (const name of names) {
    greetings.push(`Hello, ${name}!`);
    built += 1;
  }
  return greetings;
}
