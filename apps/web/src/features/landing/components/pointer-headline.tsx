import { useEffect, useRef } from 'react';

const REACH_PX = 140;

/**
 * docs/product.md §2: a headline whose letters change colour near the pointer. Letters are grouped by word
 * (Intl.Segmenter, so Chinese breaks between words too) and coloured straight on the DOM in one
 * animation frame per pointer move: no React render per mouse move.
 */
export function PointerHeadline({ text, className }: { text: string; className?: string }) {
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const heading = headingRef.current;
    if (!heading) return;
    let frame = 0;
    let pointer: { x: number; y: number } | null = null;

    const paint = () => {
      frame = 0;
      // Queried per frame: the letters change with the language.
      for (const letter of heading.querySelectorAll<HTMLElement>('[data-letter]')) {
        let nearness = 0;
        if (pointer) {
          const box = letter.getBoundingClientRect();
          const distance = Math.hypot(
            box.left + box.width / 2 - pointer.x,
            box.top + box.height / 2 - pointer.y,
          );
          nearness = Math.max(0, 1 - distance / REACH_PX);
        }
        letter.style.color =
          nearness > 0
            ? `color-mix(in oklab, var(--color-brand) ${Math.round(nearness * 100)}%, var(--color-fg))`
            : '';
      }
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(paint);
    };
    const onPointerMove = (event: PointerEvent) => {
      pointer = { x: event.clientX, y: event.clientY };
      schedule();
    };
    const onPointerLeave = () => {
      pointer = null;
      schedule();
    };

    window.addEventListener('pointermove', onPointerMove, { passive: true });
    document.documentElement.addEventListener('pointerleave', onPointerLeave);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('pointermove', onPointerMove);
      document.documentElement.removeEventListener('pointerleave', onPointerLeave);
    };
  }, []);

  return (
    <h1 ref={headingRef} className={className}>
      <span className="sr-only">{text}</span>
      <span aria-hidden="true" key={text}>
        {segmentWords(text).map((word, wordIndex) =>
          word.trim() === '' ? (
            word
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: the text is static; its order is its identity.
            <span key={wordIndex} className="inline-block whitespace-nowrap">
              {Array.from(word).map((letter, letterIndex) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: as above.
                <span key={letterIndex} data-letter className="transition-colors duration-150">
                  {letter}
                </span>
              ))}
            </span>
          ),
        )}
      </span>
    </h1>
  );
}

function segmentWords(text: string): string[] {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
  const words: string[] = [];
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    const previous = words.at(-1);
    // Keep punctuation with the word before it, so '。' or '.' never starts a line.
    if (!isWordLike && segment.trim() !== '' && previous !== undefined && previous.trim() !== '') {
      words[words.length - 1] = previous + segment;
    } else {
      words.push(segment);
    }
  }
  return words;
}
