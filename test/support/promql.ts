/** Metric names in PromQL and in Prometheus text exposition, for the checks of ops/. */

const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
  'inf',
  'nan',
]);

/**
 * The metric names an expression selects: identifiers that are neither functions nor aggregation
 * operators (followed by `(`), keywords, label names (inside `{}` or a `by (...)` list), strings,
 * durations nor numbers. Grafana's `$__rate_interval` style variables sit in ranges and go too.
 */
export function metricNamesOf(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\boffset\s+\S+/g, ' ');
  const names = new Set<string>();
  for (const m of stripped.matchAll(/(?<![\w:.$])([a-zA-Z_:][\w:]*)(\s*\()?/g)) {
    const [, name, call] = m;
    if (call !== undefined || KEYWORDS.has(name!.toLowerCase())) continue;
    names.add(name!);
  }
  return [...names].sort();
}

/**
 * Every sample name a `/metrics` page can carry: the names of its `# TYPE` lines (with
 * `_bucket`, `_sum`, `_count` for histograms and summaries) and of its samples.
 */
export function exposedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\w+)/.exec(line);
    if (type !== null) {
      names.add(type[1]!);
      if (type[2] === 'histogram' || type[2] === 'summary')
        for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${type[1]}${suffix}`);
      continue;
    }
    const sample = /^([a-zA-Z_:][\w:]*)[{ ]/.exec(line);
    if (sample !== null) names.add(sample[1]!);
  }
  return names;
}
