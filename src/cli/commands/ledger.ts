import type { Command } from 'commander';

export function ledgerCommands(_program: Command): void {}
