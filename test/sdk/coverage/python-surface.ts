// The Python SDK's request surface, read by python_surface.py from the installed
// SDK (PYTHON_PACKAGES_PATH, set by npm test).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface PythonField {
  owner: string;
  field: string;
  alias: string | null;
  values: string[];
}

export interface PythonSurface {
  version: string;
  methods: { client: string; method: string }[];
  fields: PythonField[];
}

export function pythonSdkSurface(): PythonSurface {
  const sdkPath = process.env.PYTHON_PACKAGES_PATH;
  if (!sdkPath) throw new Error('PYTHON_PACKAGES_PATH is not set: run the tests with `npm test`, which installs the Python SDK');
  const script = fileURLToPath(new URL('./python_surface.py', import.meta.url));
  const out = execFileSync('python3', [script], { env: { ...process.env, PYTHONPATH: sdkPath }, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(out) as PythonSurface;
}
