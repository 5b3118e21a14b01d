// The PWA's modules import one another one way only: no module under pwa/js reaches, through
// its static imports, a module that leads back to it (STYLE.md, practice 10). A loop makes the
// order modules run in depend on which one a page happens to load first, and hides which of
// them is the lower layer. Dynamic import() is left out: it runs later, by then everything is
// loaded (the router loads the console's sections that way).
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

const JS = resolve(dirname(fileURLToPath(import.meta.url)), '../../pwa/js');

/** Every .js file under a folder, as absolute paths. */
function modules(folder) {
  return readdirSync(folder, {withFileTypes: true}).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

// `import x from '...'`, `import {a,\n b} from '...'`, `export {a} from '...'`, `import '...'`.
const STATIC = /^\s*(?:import|export)\b[^'"();]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;

/** A module's static imports, as absolute paths (comments removed first). */
export function staticImports(path, text = readFileSync(path, 'utf8')) {
  const code = text.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/[^\n]*$/gm, '');
  return [...code.matchAll(STATIC)].map((m) => resolve(dirname(path), m[1] || m[2]));
}

/** The first loop found in a graph ({module: [imports]}), as the modules along it, or null. */
export function findLoop(graph) {
  const done = new Set();
  const path = [];
  const onPath = new Set();
  function visit(node) {
    if (onPath.has(node)) return [...path.slice(path.indexOf(node)), node];
    if (done.has(node)) return null;
    path.push(node);
    onPath.add(node);
    for (const next of graph[node] || []) {
      const loop = visit(next);
      if (loop) return loop;
    }
    path.pop();
    onPath.delete(node);
    done.add(node);
    return null;
  }
  for (const node of Object.keys(graph).sort()) {
    const loop = visit(node);
    if (loop) return loop;
  }
  return null;
}

test('the loop finder finds a loop and passes a one-way graph', () => {
  assert.deepEqual(findLoop({a: ['b'], b: ['c'], c: ['a']}), ['a', 'b', 'c', 'a']);
  assert.deepEqual(findLoop({x: ['x']}), ['x', 'x']);
  assert.equal(findLoop({a: ['b', 'c'], b: ['c'], c: []}), null);
});

test('imports are read across lines and past comments', () => {
  const text = "/** import {x} from './not-this.js' */\nimport {a,\n  b} from './one.js';\n"
    + "// import './nor-this.js';\nexport {c} from '../two.js';\nimport './three.js';\n"
    + "const later = () => import('./lazy.js');\n";
  const found = staticImports('/p/js/m.js', text);
  assert.deepEqual(found, ['/p/js/one.js', '/p/two.js', '/p/js/three.js']);
});

test('no module under pwa/js imports, through its static imports, one that leads back to it', () => {
  const files = modules(JS);
  assert.ok(files.length > 20, `only ${files.length} modules found under ${JS}`);
  const name = (path) => relative(JS, path);
  const graph = Object.fromEntries(files.map((path) => [name(path),
    staticImports(path).map(name)]));
  const missing = Object.entries(graph).flatMap(([from, to]) =>
    to.filter((n) => !(n in graph)).map((n) => `${from} imports ${n}, which is not there`));
  assert.deepEqual(missing, []);
  const loop = findLoop(graph);
  assert.equal(loop, null, `an import loop: ${loop?.join(' → ')}`);
});
