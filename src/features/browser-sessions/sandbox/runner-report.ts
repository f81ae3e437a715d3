// What a runner writes on REPORT_FD when the code is done: one JSON object on one
// line, the last thing it does before it exits. The line's end tells the host the
// run is over, so the answer need not wait for the sandbox to be torn down.

export interface RunnerReport {
  /** The status the runner exits with. */
  exitCode?: number;
  result?: string | null;
  error?: string | null;
  fatal?: string;
}

/** The report in the text read from REPORT_FD (its first line); {} when there is none or it does not read. */
export function parseReport(text: string): RunnerReport {
  const end = text.indexOf('\n');
  const line = end < 0 ? text : text.slice(0, end);
  if (line === '') return {};
  try {
    const parsed = JSON.parse(line) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as RunnerReport) : {};
  } catch {
    return {};
  }
}
