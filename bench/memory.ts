// Memory of a server process, read from /proc/PID/status. Anonymous memory (heaps, buffers)
// is what the service holds; file-backed resident pages are LMDB's memory map, the page cache
// the kernel may drop at will, so they are reported apart (bench/README.md#memory).
import { readFileSync } from 'node:fs';

export interface Memory {
  /** Resident set size, in MiB, and its peak so far (VmHWM). */
  rssMiB: number;
  peakRssMiB: number;
  /** The anonymous part of the resident set (RssAnon). */
  anonMiB: number;
  /** The file-backed part (RssFile): pages of the LMDB map in the page cache. */
  fileMiB: number;
}

/** Memory of a process now (taskset execs node in place, so the pid is node's). */
export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  return { rssMiB: mib('VmRSS'), peakRssMiB: mib('VmHWM'), anonMiB: mib('RssAnon'), fileMiB: mib('RssFile') };
}

export interface MemoryPeaks {
  peakRssMiB: number;
  peakAnonMiB: number;
  peakFileMiB: number;
}

/**
 * Samples a process's memory every `everyMs` until stopped, and returns the peaks: the
 * kernel keeps a peak of the whole resident set only, not of its anonymous part.
 */
export function sampleMemory(pid: number, everyMs = 100): { stop(): MemoryPeaks } {
  const peaks: MemoryPeaks = { peakRssMiB: 0, peakAnonMiB: 0, peakFileMiB: 0 };
  const sample = () => {
    const memory = memoryOf(pid);
    peaks.peakRssMiB = Math.max(peaks.peakRssMiB, memory.peakRssMiB);
    peaks.peakAnonMiB = Math.max(peaks.peakAnonMiB, memory.anonMiB);
    peaks.peakFileMiB = Math.max(peaks.peakFileMiB, memory.fileMiB);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { ...peaks };
    },
  };
}
