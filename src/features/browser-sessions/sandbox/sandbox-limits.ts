// The resource limits of every sandboxed process, applied with prlimit after
// the uid is dropped so that they hold for the caller's code and everything it
// starts. RLIMIT_NPROC counts the processes of a uid machine-wide, which is why
// each session runs as a uid of its own.
import type { SandboxSettings } from './config.ts';

export type { SandboxSettings };

export const PRLIMIT = '/usr/bin/prlimit';

export function prlimitArgs(settings: SandboxSettings, cpuSeconds: number | undefined): string[] {
  return [
    PRLIMIT,
    `--as=${settings.memoryBytes}`,
    `--nproc=${settings.maxProcesses}`,
    `--fsize=${settings.maxFileBytes}`,
    `--nofile=${settings.maxOpenFiles}`,
    '--core=0',
    ...(cpuSeconds === undefined ? [] : [`--cpu=${cpuSeconds}`]),
    '--',
  ];
}
