import type { Command } from 'commander';

export function completionCommand(_program: Command): void {}
