import type { Command } from 'commander';

export function workCommands(_program: Command): void {}
