// Types of dependency-patches.mjs, which stays plain JavaScript: bootstrap.mjs imports it before anything is installed.
export interface DependencyPatch {
  name: string;
  version: string;
  /** Per file under the package's folder: each `find[i]` (present exactly once) becomes `replace[i]`. */
  files: Record<string, { find: string[]; replace: string[] }>;
}

export const DEPENDENCY_PATCHES: DependencyPatch[];

/** The files it edited, as `package/file`. */
export function applyDependencyPatches(root: string, patches?: DependencyPatch[]): string[];
