import { PARTICLE_COUNT } from '@pm/core/constants';
import { describe, expect, test } from 'vitest';
import { createParticles, stepParticles } from './particles.ts';

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('particles', () => {
  test('The landing background creates the spec’s 50 particles inside the unit square', () => {
    const particles = createParticles(PARTICLE_COUNT, seeded(1));
    expect(particles).toHaveLength(50);
    for (const particle of particles) {
      expect(particle.x).toBeGreaterThanOrEqual(0);
      expect(particle.x).toBeLessThan(1);
    }
  });

  test('A particle leaving one edge comes back at the opposite edge', () => {
    const particles = [{ x: 0.99, y: 0.01, vx: 0.02, vy: -0.02, radius: 1 }];
    stepParticles(particles, 1);
    expect(particles[0]?.x).toBeCloseTo(0.01);
    expect(particles[0]?.y).toBeCloseTo(0.99);
  });
});
