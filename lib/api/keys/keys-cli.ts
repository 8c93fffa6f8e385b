/**
 * The logic of `npm run keys -- <command>`, over any KeyStore (the script that opens the database calls it):
 *   create --name NAME [--ru-per-second N] [--ru-per-month N]   prints the new key once
 *   list                                                         ids, names, limits, state (never keys or digests)
 *   disable ID                                                   refuses the key from then on (403)
 * Returns the process exit code: 0 done, 1 failed, 2 usage error.
 */
import { formatRu, parseRu } from './costs';
import { createApiKey, type ApiKeyLimits, type KeyStore } from './keys';

export interface KeysCliIo {
  store: KeyStore;
  now: Date;
  out: (line: string) => void;
  err: (line: string) => void;
}

export const KEYS_USAGE = [
  'usage: npm run keys -- create --name NAME [--ru-per-second N] [--ru-per-month N]',
  '       npm run keys -- list',
  '       npm run keys -- disable ID',
].join('\n');

const CREATE_OPTIONS = new Set(['--name', '--ru-per-second', '--ru-per-month']);

function parseOptions(args: readonly string[]): Map<string, string> {
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i] ?? '';
    const value = args[i + 1];
    if (!CREATE_OPTIONS.has(name)) throw new UsageError(`unknown option ${name}`);
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value`);
    if (options.has(name)) throw new UsageError(`${name} given twice`);
    options.set(name, value);
  }
  return options;
}

class UsageError extends Error {}

async function create(args: readonly string[], io: KeysCliIo): Promise<number> {
  const options = parseOptions(args);
  const name = options.get('--name');
  if (name === undefined) throw new UsageError('create needs --name');
  const limits: Partial<ApiKeyLimits> = {};
  const perSecond = options.get('--ru-per-second');
  const perMonth = options.get('--ru-per-month');
  try {
    if (perSecond !== undefined) limits.milliRuPerSecond = parseRu(perSecond);
    if (perMonth !== undefined) limits.milliRuPerMonth = parseRu(perMonth);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { key, record } = await createApiKey(io.store, { name, limits, now: io.now });
  const limitsText = `${formatRu(record.milliRuPerSecond)} RU/s, ${formatRu(record.milliRuPerMonth)} RU/month`;
  io.out(`created ${record.id} "${record.name}": ${limitsText}`);
  io.out(`key (shown once, store it now): ${key}`);
  return 0;
}

async function list(io: KeysCliIo): Promise<number> {
  const records = await io.store.list();
  if (records.length === 0) io.out('no keys');
  for (const record of records) {
    const state = record.disabled ? 'disabled' : 'active';
    const columns = [
      record.id,
      state,
      record.created.toISOString(),
      `${formatRu(record.milliRuPerSecond)} RU/s`,
      `${formatRu(record.milliRuPerMonth)} RU/month`,
      record.name,
    ];
    io.out(columns.join('\t'));
  }
  return 0;
}

async function disable(args: readonly string[], io: KeysCliIo): Promise<number> {
  const [id, ...rest] = args;
  if (id === undefined || rest.length > 0) throw new UsageError('disable takes one key id');
  if (!(await io.store.setDisabled(id, true))) {
    io.err(`no key with id ${id}`);
    return 1;
  }
  io.out(`disabled ${id}`);
  return 0;
}

export async function runKeysCommand(argv: readonly string[], io: KeysCliIo): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'create':
        return await create(args, io);
      case 'list':
        if (args.length > 0) throw new UsageError('list takes no arguments');
        return await list(io);
      case 'disable':
        return await disable(args, io);
      default:
        throw new UsageError(command === undefined ? 'no command given' : `unknown command ${command}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n${KEYS_USAGE}`);
      return 2;
    }
    if (error instanceof RangeError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}
