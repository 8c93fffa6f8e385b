/**
 * getMetrics' process section, sampled the way kaspad's perf monitor reports it: resident and virtual memory, cores,
 * CPU use (1.0 = one core busy) and disk I/O rates since the previous sample. Linux's /proc supplies what Node's
 * process API lacks (virtual size, open descriptors, I/O bytes); elsewhere those read 0.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import type { GetSystemInfoResponse, RpcProcessMetrics } from '../../rpc/types';

function procText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function procField(text: string | undefined, pattern: RegExp): bigint {
  const match = text === undefined ? null : pattern.exec(text);
  return match === null ? 0n : BigInt(match[1]!);
}

function openDescriptors(): number {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return 0;
  }
}

export type ProcessSampler = () => RpcProcessMetrics;

/** `now` in milliseconds; rates cover the time since the sampler's previous call (or its creation). */
export function createProcessSampler(now: () => number): ProcessSampler {
  let last = { at: now(), cpuMicros: cpuMicros(), read: 0n, written: 0n };
  const io = () => {
    const text = procText('/proc/self/io');
    return { read: procField(text, /^read_bytes:\s*(\d+)/m), written: procField(text, /^write_bytes:\s*(\d+)/m) };
  };
  last = { ...last, ...io() };
  return () => {
    const at = now();
    const cpu = cpuMicros();
    const { read, written } = io();
    const seconds = Math.max(at - last.at, 1) / 1000;
    const sample: RpcProcessMetrics = {
      residentSetSize: BigInt(process.memoryUsage.rss()),
      virtualMemorySize: procField(procText('/proc/self/status'), /^VmSize:\s*(\d+) kB/m) * 1024n,
      coreNum: availableParallelism(),
      cpuUsage: (cpu - last.cpuMicros) / 1e6 / seconds,
      fdNum: openDescriptors(),
      diskIoReadBytes: read,
      diskIoWriteBytes: written,
      diskIoReadPerSec: Number(read - last.read) / seconds,
      diskIoWritePerSec: Number(written - last.written) / seconds,
    };
    last = { at, cpuMicros: cpu, read, written };
    return sample;
  };
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * getSystemInfo: the machine as Node sees it. Logical cores stand in for physical ones (Node cannot tell them apart);
 * the descriptor limit is the soft "Max open files" of /proc/self/limits (0 elsewhere). The devnet exposes no machine
 * identity or git hash (null, as kaspad sends when it has none) and sets no proxy socket limit.
 */
export function systemInfo(version: string): GetSystemInfoResponse {
  const limits = procText('/proc/self/limits');
  const fdLimit = limits === undefined ? 0 : Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1] ?? 0);
  return {
    version,
    systemId: null,
    gitHash: null,
    cpuPhysicalCores: availableParallelism(),
    totalMemory: BigInt(totalmem()),
    fdLimit,
    proxySocketLimitPerCpuCore: null,
  };
}
