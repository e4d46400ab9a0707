// `npm run pack`: the `warden` package as one installable tarball, the engine
// included. The engine is a workspace package of its own, which a registry
// would serve beside Warden; packed alone, `warden` would name a package no
// registry has. So the tarball carries the engine's build inside its own
// (`dist/_engine/`), its imports point there, and the engine's dependencies
// become Warden's. Usage: node scripts/pack.mjs [--out DIR] (default: the
// current folder); prints the tarball's path.

import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WARDEN = join(ROOT, 'packages', 'warden');
const ENGINE = join(ROOT, 'packages', 'engine');

function fail(message) {
  process.stderr.write(`pack: ${message}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
let out = process.cwd();
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--out' && args[i + 1] !== undefined) out = resolve(args[++i]);
  else fail(`unknown argument \`${args[i]}\` (usage: node scripts/pack.mjs [--out DIR])`);
}
for (const built of [join(WARDEN, 'dist', 'cli', 'main.js'), join(ENGINE, 'dist', 'index.js')])
  if (!existsSync(built)) fail(`${relative(ROOT, built)} is missing: run \`npm run build\` first`);

const stage = mkdtempSync(join(tmpdir(), 'warden-pack-'));
try {
  for (const part of ['bin', 'dist', 'web'])
    cpSync(join(WARDEN, part), join(stage, part), { recursive: true });
  for (const file of ['README.md', 'LICENSE', 'CHANGELOG.md'])
    if (existsSync(join(ROOT, file))) cpSync(join(ROOT, file), join(stage, file));
  const engineDir = join(stage, 'dist', '_engine');
  cpSync(join(ENGINE, 'dist'), engineDir, { recursive: true });

  // Every import of the engine, in code and in declarations, points at the copy.
  const SPECIFIER = /(['"])@warden\/engine\1/g;
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (path === engineDir) continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(js|cjs|mjs|d\.ts)$/.test(name)) {
        const text = readFileSync(path, 'utf8');
        if (!text.includes('@warden/engine')) continue;
        let target = relative(dirname(path), join(engineDir, 'index.js')).split('\\').join('/');
        if (!target.startsWith('.')) target = `./${target}`;
        writeFileSync(
          path,
          text.replace(SPECIFIER, (_m, quote) => `${quote}${target}${quote}`),
        );
      }
    }
  };
  walk(join(stage, 'dist'));

  const manifest = JSON.parse(readFileSync(join(WARDEN, 'package.json'), 'utf8'));
  const engine = JSON.parse(readFileSync(join(ENGINE, 'package.json'), 'utf8'));
  const dependencies = { ...engine.dependencies, ...manifest.dependencies };
  delete dependencies['@warden/engine'];
  manifest.dependencies = Object.fromEntries(
    Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b)),
  );
  manifest.files = [
    ...new Set([...(manifest.files ?? []), 'README.md', 'LICENSE', 'CHANGELOG.md']),
  ];
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], {
    cwd: stage,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .at(-1);
  process.stdout.write(`${join(out, name)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
