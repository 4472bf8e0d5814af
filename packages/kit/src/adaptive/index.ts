// Adaptive content: conditions and their evaluation, pure (no Node built-ins), importable alone as `@quire/kit/adaptive`.
export * from './condition.ts';
export * from './evaluate.ts';
