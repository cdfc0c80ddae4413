// `npm ci` installs exactly the lock file and refuses one out of step with package.json, or one
// missing the optional binaries of the platform it runs on (astro's compiler, deno, esbuild ship
// one package per platform). An `npm install` run in a tree that already has node_modules may
// write a lock with only this machine's binaries; regenerate it with
// `npm install --package-lock-only` (which records every platform) and commit that.
import assert from "node:assert/strict";

interface LockPackage {
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const pkg = JSON.parse(await Deno.readTextFile("package.json")) as LockPackage;
const lock = JSON.parse(await Deno.readTextFile("package-lock.json")) as {
  packages: Record<string, LockPackage>;
};

Deno.test("[lock] package-lock.json names exactly package.json's dependencies", () => {
  const root = lock.packages[""];
  assert.deepEqual(root.dependencies ?? {}, pkg.dependencies ?? {});
  assert.deepEqual(root.devDependencies ?? {}, pkg.devDependencies ?? {});
});

Deno.test("[lock] every optional platform binary a locked package names is in the lock", () => {
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      // npm resolves a dependency in the package's own node_modules first, then up the tree.
      const nested = `${path}/node_modules/${name}`;
      const hoisted = `node_modules/${name}`;
      if (!lock.packages[nested] && !lock.packages[hoisted]) missing.push(`${path} → ${name}`);
    }
  }
  assert.deepEqual(missing, [], "run `npm install --package-lock-only` and commit the lock");
});
