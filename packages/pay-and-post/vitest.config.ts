import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'pay-and-post', include: ['src/**/*.test.ts'] } });
