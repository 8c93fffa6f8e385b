/**
 * The import order the README's architecture section states, checked on every non-test module of lib/: a folder
 * imports only folders of lower layers (the folders of one layer never import each other), and the folders inside
 * lib/api and lib/devnet keep their own order. Tests and their test-support may reach anywhere (a test of lib/api
 * starts a devnet).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const LIB = __dirname;

const LAYERS: readonly (readonly string[])[] = [
  ['kaspa'],
  ['rpc', 'tokens'],
  ['db'],
  ['wallet'],
  ['devnet', 'indexer', 'api'],
  ['stream', 'webhooks', 'kaspa-rest', 'web'],
  ['env', 'live'],
  ['runtime'],
  ['serving', 'status'],
];

/**
 * Stages whose own folders are ordered too: each folder imports only the layers before it, and the stage's top-level
 * files (its entry and assembly: lib/api/index.ts, lib/devnet/node.ts) may import any of them but are imported by none.
 */
const INNER_LAYERS: Record<string, readonly (readonly string[])[]> = {
  api: [['http'], ['keys'], ['wrapper'], ['endpoints'], ['openapi']],
  devnet: [['consensus'], ['mempool'], ['mining', 'traffic', 'server']],
};

/** The standalone devnet's entry point reads the environment, as the composition root does. */
const ALLOWED = new Set(['devnet/main -> env']);

function layerOf(top: string): number {
  const layer = LAYERS.findIndex((folders) => folders.includes(top));
  return layer === -1 ? Number.POSITIVE_INFINITY : layer;
}

function modules(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : modules(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

interface Arrow {
  from: string;
  to: string;
}

function arrows(): Arrow[] {
  return modules(LIB).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^;]*? from '(\.[^']+)'/gm)].map((match) => ({
      from: relative(LIB, file).replace(/\.tsx?$/, ''),
      to: relative(LIB, resolve(dirname(file), match[1]!)),
    })),
  );
}

const top = (path: string) => path.split('/')[0]!;

describe('the import order of lib/', () => {
  const all = arrows();

  it('reads the imports of every stage', () => {
    expect(new Set(all.map((arrow) => top(arrow.from)))).toEqual(
      new Set(['kaspa', 'rpc', 'tokens', 'db', 'wallet', 'devnet', 'indexer', 'api', 'stream', 'webhooks', 'kaspa-rest', 'web', 'env', 'live', 'runtime', 'serving', 'status']),
    );
  });

  it('every arrow between folders runs to a lower layer', () => {
    const against = all.filter((arrow) => {
      const [from, to] = [top(arrow.from), top(arrow.to)];
      if (from === to || ALLOWED.has(`${arrow.from} -> ${to}`) || ALLOWED.has(`${from} -> ${to}`)) return false;
      return !(layerOf(to) < layerOf(from));
    });
    expect(against.map((arrow) => `${arrow.from} -> ${arrow.to}`)).toEqual([]);
  });

  for (const [stage, layers] of Object.entries(INNER_LAYERS)) {
    it(`lib/${stage}'s folders import only the layers before them`, () => {
      const layerIn = (path: string) => {
        const parts = path.split('/');
        return parts.length === 2 ? Number.POSITIVE_INFINITY : layers.findIndex((folders) => folders.includes(parts[1]!));
      };
      const against = all.filter((arrow) => {
        if (top(arrow.from) !== stage || top(arrow.to) !== stage) return false;
        const [from, to] = [arrow.from.split('/'), arrow.to.split('/')];
        if (from.length === 2 && to.length === 2) return false;
        if (from.length > 2 && to.length > 2 && from[1] === to[1]) return false;
        const [fromLayer, toLayer] = [layerIn(arrow.from), layerIn(arrow.to)];
        return fromLayer === -1 || toLayer === -1 || !(toLayer < fromLayer);
      });
      expect(against.map((arrow) => `${arrow.from} -> ${arrow.to}`)).toEqual([]);
    });
  }

  it('only the composition root and the devnet\'s entry point read lib/env.ts', () => {
    const readers = all.filter((arrow) => arrow.to === 'env').map((arrow) => arrow.from);
    expect(readers.every((from) => top(from) === 'runtime' || from === 'devnet/main')).toBe(true);
  });
});
