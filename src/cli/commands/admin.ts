import type { Command } from 'commander';

export function adminCommand(_program: Command): void {}
