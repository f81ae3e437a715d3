// Runs a script of test/sdk/ with the official Python SDK (installed into
// .tools/python by npm test, its path given as PYTHON_PACKAGES_PATH). Asynchronously:
// the worker serving the SDK's requests runs in the test's own process.
import { spawn } from 'node:child_process';

export async function runPythonSdk(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const sdkPath = process.env.PYTHON_PACKAGES_PATH;
  if (!sdkPath) throw new Error('PYTHON_PACKAGES_PATH is not set: run the tests with `npm test`, which installs the Python SDK');
  return new Promise((resolve) => {
    const child = spawn('python3', [script], { env: { ...process.env, PYTHONPATH: sdkPath, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
