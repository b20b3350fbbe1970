import type { Command } from 'commander';

export function waitCommand(_program: Command): void {}
