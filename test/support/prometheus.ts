/** Reading Prometheus text exposition in tests. */

/** A `/metrics` page. */
export async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return res.text();
}

/**
 * Sum of the samples of `name` whose labels include all of `labels` (0 when none): the sample
 * of one series when the labels pick one, else the total over those they match.
 */
export function sampleSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/.exec(line);
    if (m === null || m[1] !== name) continue;
    const seen = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1]!, x[2]!] as const),
    );
    if (Object.entries(labels).every(([k, v]) => seen[k] === v)) total += Number(m[3]);
  }
  return total;
}
