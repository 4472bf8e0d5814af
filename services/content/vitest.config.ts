import { defineConfig } from 'vitest/config';

// Two test files at a time (vitest gives a 2-core machine one): each file has its own throwaway database
// (`createTestDatabase`), and most of a file's time is importing the service and waiting on PostgreSQL. Measured on
// the quiet 2-core machine: content 316 → 198 s, sites 217 → 115 s, org-admin 88 → 55 s (docs/testing.md).
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 60_000, maxWorkers: 2 } });
