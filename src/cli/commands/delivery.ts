import type { Command } from 'commander';

export function deliveryCommands(_program: Command): void {}
