/**
 * MuJoCo's own speed test, natively: Debian's `mujoco-testspeed` (package libmujoco-samples,
 * MuJoCo 2.2.2). It loads an MJCF file from qpos0 (or a keyframe named 'test'), writes
 * control noise from a Halton sequence each step, calls mj_step, and prints steps per second
 * and contacts and constraints per step.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { childrenCpuSeconds } from './thread-cpu';

export const TESTSPEED_INSTALL = 'apt-get install libmujoco-samples';

const NAMES = ['mujoco-testspeed', 'testspeed'];

/** The testspeed binary on PATH (or Debian's path), or undefined. */
export function findTestspeed(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/bin'];
  for (const dir of dirs) for (const name of NAMES) if (existsSync(path.join(dir, name))) return path.join(dir, name);
  return undefined;
}

export interface SpeedRun {
  /** Steps per second of wall time, as the program timed its own loop. */
  wallStepsPerS: number;
  /** Steps per CPU second (the loop only; loading the model is taken off), or undefined where CPU time cannot be read. */
  cpuStepsPerS: number | undefined;
  contactsPerStep: number;
  constraintsPerStep: number;
}

function field(output: string, label: string): number {
  const match = new RegExp(`${label}\\s*:\\s*([0-9.eE+-]+)`).exec(output);
  if (!match) throw new Error(`mujoco-testspeed printed no '${label}':\n${output}`);
  return Number(match[1]);
}

/** One run of `testspeed file nstep 1 ctrlnoise` (one thread). `loadCpuSeconds` is a run's cost before its loop. */
export function runTestspeed(binary: string, file: string, nstep: number, ctrlNoise: number, loadCpuSeconds = 0): SpeedRun {
  const cpuBefore = childrenCpuSeconds();
  const output = execFileSync(binary, [file, String(nstep), '1', String(ctrlNoise)], { encoding: 'utf8' });
  const cpuAfter = childrenCpuSeconds();
  const loopSeconds = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore - loadCpuSeconds;
  return {
    wallStepsPerS: nstep / field(output, 'Simulation time'),
    cpuStepsPerS: loopSeconds !== undefined && loopSeconds > 0 ? nstep / loopSeconds : undefined,
    contactsPerStep: field(output, 'Contacts per step'),
    constraintsPerStep: field(output, 'Constraints per step'),
  };
}

/** Newer MJCF than MuJoCo 2.2.2 reads, mapped to its nearest 2.2.2 form. */
const KEYWORDS_2_2: Readonly<Record<string, string>> = { implicitfast: 'implicit' };

export interface NativeScene {
  file: string;
  xml: string;
  /** What had to change for testspeed to read the scene ('' when nothing). */
  changes: string[];
}

/**
 * Writes `xml` to `file` in a form testspeed reads: attributes it does not know are removed, and
 * keywords it does not know are replaced by their nearest older ones, one refusal at a time.
 * Both engines then run this same file.
 */
export function writeNativeScene(binary: string, file: string, xml: string): NativeScene {
  const changes: string[] = [];
  let text = xml;
  for (let attempt = 0; attempt < 16; attempt++) {
    writeFileSync(file, text);
    const result = spawnSync(binary, [file, '1', '1', '0'], { encoding: 'utf8' });
    const output = `${result.stdout}${result.stderr}`;
    if (/Steps per second/.test(output)) return { file, xml: text, changes };
    const attribute = /unrecognized attribute: '([^']+)'/.exec(output)?.[1];
    const keyword = /invalid keyword: '([^']+)'/.exec(output)?.[1];
    if (attribute) {
      text = text.replace(new RegExp(`\\s${attribute}="[^"]*"`, 'g'), '');
      changes.push(`${attribute}= removed`);
    } else if (keyword && KEYWORDS_2_2[keyword]) {
      text = text.replace(new RegExp(`"${keyword}"`, 'g'), `"${KEYWORDS_2_2[keyword]}"`);
      changes.push(`${keyword} → ${KEYWORDS_2_2[keyword]}`);
    } else {
      throw new Error(`mujoco-testspeed cannot read the scene: ${output.trim().split('\n').pop()}`);
    }
  }
  throw new Error('mujoco-testspeed still refuses the scene after 16 changes');
}
