import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { BannerArt } from './art.tsx';
import styles from './home.module.css';

const slides = [
  {
    title: 'Dhols made for the baraat',
    text: 'Mango and sheesham wood dhols, rope or bolt tuned, set up in our workshop before they reach you.',
    link: '/search?t=2010',
    action: 'Shop dhols',
  },
  {
    title: 'Harmoniums with a voice of their own',
    text: 'Hand-tuned reeds, scale changers and folding models for kirtan, qawwali and the classroom.',
    link: '/search?t=2017',
    action: 'Shop harmoniums',
  },
] as const;

const INTERVAL_MS = 7000;

/**
 * Two slides that move on by themselves unless the shopper hovers, focuses inside, presses Pause
 * or prefers reduced motion; previous, next and the dots work from the keyboard.
 */
export function BannerSlider() {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  // The page drawn on the server (ADR 0021) cannot know it: hydrated as drawn there (no preference),
  // then drawn again at once with the browser's.
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const rotating = !paused && !hovered && !focused && !reducedMotion;

  useEffect(() => {
    if (!rotating) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % slides.length), INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [rotating]);

  const go = (next: number) => setIndex((next + slides.length) % slides.length);

  return (
    <section
      className={styles.slider}
      aria-roledescription="carousel"
      aria-label="Highlights"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div aria-live={rotating ? 'off' : 'polite'}>
        {slides.map((slide, i) => (
          <div
            key={slide.title}
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${slides.length}`}
            className={styles.slide}
            hidden={i !== index}
          >
            <BannerArt variant={i === 0 ? 1 : 2} />
            <div className={styles.slideText}>
              <h2>{slide.title}</h2>
              <p>{slide.text}</p>
              <Link to={slide.link} className={`button ${styles.slideButton}`}>
                {slide.action}
              </Link>
            </div>
          </div>
        ))}
      </div>
      <div className={styles.sliderControls}>
        <button type="button" className={styles.sliderButton} onClick={() => go(index - 1)} aria-label="Previous slide">
          ‹
        </button>
        {slides.map((slide, i) => (
          <button
            key={slide.title}
            type="button"
            className={styles.dot}
            aria-label={`Show slide ${i + 1}`}
            aria-current={i === index ? 'true' : undefined}
            onClick={() => go(i)}
          />
        ))}
        <button type="button" className={styles.sliderButton} onClick={() => go(index + 1)} aria-label="Next slide">
          ›
        </button>
        <button type="button" className={styles.sliderButton} onClick={() => setPaused((p) => !p)}>
          {paused ? 'Play' : 'Pause'}
        </button>
      </div>
    </section>
  );
}
