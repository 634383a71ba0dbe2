import { spawn } from 'node:child_process';
import { testEnvironment } from './test-environment.ts';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a project script in its own Node process, as another instance or a CLI would run. */
export function runScript(script: string, env: Record<string, string>, args: string[] = []): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...testEnvironment, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
