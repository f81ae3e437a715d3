// The JS SDK's own type declarations as a TypeScript program, built once per test
// process: the coverage table and both conformance suites read the same file, and a
// program of it (with @types/node and the DOM lib it reaches) costs seconds of CPU.
// Test files of one worker share their modules (vitest.config.ts: isolate false).
import { createRequire } from 'node:module';
import ts from 'typescript';

const programs = new Map<string, ts.Program>();

export function jsDeclarationsFile(): string {
  return createRequire(import.meta.url)
    .resolve('@mendable/firecrawl-js')
    .replace(/index\.(c?js)$/, 'index.d.ts');
}

/** A program of `file` with its checker; the same one for every caller of a process. */
export function declarationsProgram(file: string): ts.Program {
  let program = programs.get(file);
  if (!program) {
    program = ts.createProgram([file], { strict: true, skipLibCheck: true, noEmit: true });
    programs.set(file, program);
  }
  return program;
}
