import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'oxc-parser';
import { describe, expect, it } from 'vitest';

/**
 * No module imports itself back (files of src/ and web/), and no folder of src/ does either: the folders
 * stay layered (core/ at the bottom, the entries at the top, every feature above the ones it uses), so a
 * change low down never needs one higher up, and load order never meets a half-evaluated module. Every
 * relative import, every `@/` import (web/) and every `#src/` import (package.json "imports") counts, type-only ones too, and so do tests: a test
 * beside the code is part of its folder. No exceptions (docs/decisions/043-no-import-cycles.md).
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file an import names, when it is one of ours; packages and other files (JSON, CSS) are not. */
function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else if (specifier.startsWith('@/')) base = join(ROOT, 'web', specifier.slice(2));
  else if (specifier.startsWith('#src/')) base = join(ROOT, 'src', specifier.slice('#src/'.length));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

type Graph = Map<string, Set<string>>;

/** Every file's imports, static (import/export … from) and dynamic (import() of a literal), as read by the oxc parser. */
function importGraph(files: string[]): Graph {
  const known = new Set(files);
  const graph: Graph = new Map();
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const { module } = parseSync(file, source);
    const specifiers = [
      ...module.staticImports.map((i) => i.moduleRequest.value),
      ...module.staticExports.flatMap((e) => e.entries.flatMap((entry) => (entry.moduleRequest ? [entry.moduleRequest.value] : []))),
      ...module.dynamicImports.flatMap(({ moduleRequest }) => {
        const literal = /^(['"`])(.*)\1$/.exec(source.slice(moduleRequest.start, moduleRequest.end));
        return literal ? [literal[2]!] : [];
      }),
    ];
    const targets = new Set<string>();
    for (const specifier of specifiers) {
      const target = resolveImport(file, specifier);
      if (target && known.has(target)) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components of more than one node (Tarjan), each a knot of cycles. */
function knots(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** One shortest cycle through the knot's first node, as [a, b, a]: the thing to break first. */
function cycleThrough(graph: Graph, knot: string[]): string[] {
  const inKnot = new Set(knot);
  const start = knot[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of graph.get(node) ?? []) {
      if (!inKnot.has(target) || cameFrom.has(target)) continue;
      cameFrom.set(target, node);
      if (target === start) {
        const path: string[] = [];
        for (let at = node; at !== start; at = cameFrom.get(at)!) path.unshift(at);
        return [start, ...path, start];
      }
      queue.push(target);
    }
  }
  return knot;
}

/**
 * The folder a file belongs to: a feature (src/features/<name>), another folder of src/ (core, db,
 * http, platform, trpc), or, for a file directly in src/ (the entries and app.ts, env.ts, context.ts),
 * that file alone: they are no layer of their own but the wiring above and two leaves below.
 */
function folderOf(file: string): string {
  const parts = relative(ROOT, file).split('/');
  if (parts[1] === 'features') return parts.slice(0, 3).join('/');
  return parts.length === 2 ? parts.join('/') : parts.slice(0, 2).join('/');
}

function folderGraph(files: Graph): { graph: Graph; example: Map<string, string> } {
  const graph: Graph = new Map();
  const example = new Map<string, string>();
  for (const [file, targets] of files) {
    const from = folderOf(file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const target of targets) {
      const to = folderOf(target);
      if (to === from) continue;
      graph.get(from)!.add(to);
      if (!example.has(`${from} ${to}`)) example.set(`${from} ${to}`, `${relative(ROOT, file)} imports ${relative(ROOT, target)}`);
    }
  }
  return { graph, example };
}

const src = importGraph(sourceFiles(join(ROOT, 'src')));
const web = importGraph(sourceFiles(join(ROOT, 'web')));

describe('import cycles', () => {
  it('reads the imports it checks', () => {
    // A guard for the guard: if the parsing broke, every check below would pass on an empty graph.
    const edges = (graph: Graph, from: string) => [...(graph.get(join(ROOT, from)) ?? [])].map((to) => relative(ROOT, to));
    expect(edges(src, 'src/app.ts')).toContain('src/context.ts'); // import type
    expect(edges(web, 'web/components/auth-controls.tsx')).toContain('web/components/signed-in-controls.tsx'); // import()
    expect(edges(web, 'web/main.tsx')).toContain('web/router.tsx');
  });

  it.each([
    ['src', src],
    ['web', web],
  ])('has none between the files of %s/', (_name, graph) => {
    const cycles = knots(graph).map((knot) => {
      const cycle = cycleThrough(graph, knot).map((file) => relative(ROOT, file));
      return `${cycle.join(' → ')}${knot.length > cycle.length - 1 ? ` (one of the cycles among ${knot.length} files)` : ''}`;
    });
    expect(cycles, `import cycles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('has none between the folders of src/', () => {
    const { graph, example } = folderGraph(src);
    const cycles = knots(graph).map((knot) => {
      const cycle = cycleThrough(graph, knot);
      const steps = cycle.slice(1).map((to, i) => `  ${example.get(`${cycle[i]} ${to}`)}`);
      const more = knot.length > cycle.length - 1 ? ` (one of the cycles among ${knot.join(', ')})` : '';
      return `${cycle.join(' → ')}${more}\n${steps.join('\n')}`;
    });
    expect(cycles, `folder cycles:\n${cycles.join('\n')}`).toEqual([]);
  });
});

describe('the layers', () => {
  const importsOf = (where: (file: string) => boolean) =>
    [...src]
      .filter(([file]) => where(relative(ROOT, file)))
      .flatMap(([file, targets]) => [...targets].map((target) => [relative(ROOT, file), relative(ROOT, target)] as const));

  it('keep the kernel (src/core/) free of every other part of src/', () => {
    const outward = importsOf((file) => file.startsWith('src/core/')).filter(([, target]) => !target.startsWith('src/core/'));
    expect(outward.map((edge) => edge.join(' imports '))).toEqual([]);
  });

  it('let only routes read http/: services, platform, db and core never do', () => {
    const lower = (file: string) => /^src\/(core|db|platform|features)\//.test(file) && !file.endsWith('.routes.ts');
    const intoHttp = importsOf(lower).filter(([, target]) => target.startsWith('src/http/'));
    expect(intoHttp.map((edge) => edge.join(' imports '))).toEqual([]);
  });
});
