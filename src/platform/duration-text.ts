// A duration as an operator reads it, for the lines the Temporal UI shows
// (workflow current details, timer summaries). Pure: workflow code imports it.

/** 800 ms, 2 s, 1.5 s, 3 min, 2 min 5 s, 1 h 20 min. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 3600) {
    const seconds = totalSeconds % 60;
    return seconds === 0 ? `${Math.floor(totalSeconds / 60)} min` : `${Math.floor(totalSeconds / 60)} min ${seconds} s`;
  }
  const minutes = Math.round(totalSeconds / 60) % 60;
  const hours = Math.floor(Math.round(totalSeconds / 60) / 60);
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}
