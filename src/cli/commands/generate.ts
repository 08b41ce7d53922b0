import type { Command } from 'commander';
import type { CliContext } from '../main.js';

export function registerGenerate(program: Command, _ctx: CliContext): void {
  program.command('generate').description('Write sitemaps from URL lists, JSONL or a static site folder');
}
