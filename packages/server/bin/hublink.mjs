#!/usr/bin/env node
// Loads the TypeScript entry point in this process through tsx, so the CLI needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
