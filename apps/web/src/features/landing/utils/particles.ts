/** One particle in unit space: x and y in [0, 1), velocity in units per second. */
export type Particle = { x: number; y: number; vx: number; vy: number; radius: number };

const MAX_SPEED = 0.02;

/** `random` returns numbers in [0, 1), like Math.random; tests pass a seeded one. */
export function createParticles(count: number, random: () => number): Particle[] {
  return Array.from({ length: count }, () => ({
    x: random(),
    y: random(),
    vx: (random() - 0.5) * 2 * MAX_SPEED,
    vy: (random() - 0.5) * 2 * MAX_SPEED,
    radius: 1 + random() * 1.5,
  }));
}

function wrap(value: number): number {
  return value - Math.floor(value);
}

/** Moves every particle by `seconds`, wrapping around the edges, in place (no garbage per frame). */
export function stepParticles(particles: Particle[], seconds: number): void {
  for (const particle of particles) {
    particle.x = wrap(particle.x + particle.vx * seconds);
    particle.y = wrap(particle.y + particle.vy * seconds);
  }
}
