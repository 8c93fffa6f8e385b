import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTypescript,
  {
    ignores: ['.next/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'],
  },
  {
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through lib/env.ts only.' },
      ],
    },
  },
  {
    files: ['lib/env.ts', 'instrumentation.ts', 'playwright.config.ts', 'vitest.config.ts', 'e2e/**', 'bench/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
];

export default config;
