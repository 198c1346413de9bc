import { PARTICLE_COUNT } from '@pm/core/constants';
import { useEffect, useRef } from 'react';
import { createParticles, type Particle, stepParticles } from '../utils/particles.ts';

/** Particles closer than this are joined by a faint line; shorter on narrow screens, where they crowd. */
const MAX_LINK_DISTANCE_PX = 110;
const PARTICLE_COLOR = '240, 185, 11';

/**
 * docs/product.md §2: an animated background of 50 particles. Drawn on one canvas; the loop stops while the
 * tab is hidden and never starts when the user prefers reduced motion (a still field instead).
 * `data-animating` says which, for the e2e tests.
 */
export function ParticleField() {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
    const particles = createParticles(PARTICLE_COUNT, Math.random);
    let width = 0;
    let height = 0;
    let frame = 0;
    let last = 0;

    const draw = () => {
      context.clearRect(0, 0, width, height);
      drawLinks(context, particles, width, height);
      for (const particle of particles) {
        context.beginPath();
        context.arc(particle.x * width, particle.y * height, particle.radius, 0, Math.PI * 2);
        context.fillStyle = `rgba(${PARTICLE_COLOR}, 0.55)`;
        context.fill();
      }
    };

    const tick = (now: number) => {
      // Clamp the step so a long pause (tab switch, debugger) does not teleport particles.
      stepParticles(particles, Math.min((now - last) / 1000, 0.1));
      last = now;
      draw();
      frame = requestAnimationFrame(tick);
    };

    const start = () => {
      if (frame !== 0 || document.hidden || reducedMotion.matches) return;
      last = performance.now();
      frame = requestAnimationFrame(tick);
      canvas.dataset.animating = 'true';
    };

    const stop = () => {
      cancelAnimationFrame(frame);
      frame = 0;
      canvas.dataset.animating = 'false';
    };

    const resize = () => {
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      width = canvas.clientWidth;
      height = canvas.clientHeight;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      draw();
    };

    const onVisibilityChange = () => (document.hidden ? stop() : start());
    const onMotionPreferenceChange = () => (reducedMotion.matches ? stop() : start());

    const resizeObserver = new ResizeObserver(resize);
    resizeObserver.observe(canvas);
    document.addEventListener('visibilitychange', onVisibilityChange);
    reducedMotion.addEventListener('change', onMotionPreferenceChange);
    resize();
    stop();
    start();

    return () => {
      stop();
      resizeObserver.disconnect();
      document.removeEventListener('visibilitychange', onVisibilityChange);
      reducedMotion.removeEventListener('change', onMotionPreferenceChange);
    };
  }, []);

  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0">
      <canvas
        ref={canvasRef}
        data-testid="particle-field"
        data-particles={PARTICLE_COUNT}
        className="size-full"
      />
    </div>
  );
}

function drawLinks(context: CanvasRenderingContext2D, particles: Particle[], width: number, height: number) {
  const linkDistance = Math.min(MAX_LINK_DISTANCE_PX, width / 5);
  context.lineWidth = 1;
  for (let i = 0; i < particles.length; i++) {
    const a = particles[i];
    if (!a) continue;
    for (let j = i + 1; j < particles.length; j++) {
      const b = particles[j];
      if (!b) continue;
      const distance = Math.hypot((a.x - b.x) * width, (a.y - b.y) * height);
      if (distance >= linkDistance) continue;
      context.strokeStyle = `rgba(${PARTICLE_COLOR}, ${0.18 * (1 - distance / linkDistance)})`;
      context.beginPath();
      context.moveTo(a.x * width, a.y * height);
      context.lineTo(b.x * width, b.y * height);
      context.stroke();
    }
  }
}
