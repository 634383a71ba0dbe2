import styles from './checkout.module.css';

const steps = ['Your Details', 'Delivery', 'Review Order', 'Confirmation'];

/** The four-step progress bar of every checkout screen: done steps ticked, the current one highlighted. */
export function CheckoutProgress({ current }: { current: 0 | 1 | 2 | 3 }) {
  return (
    <nav aria-label="Checkout progress">
      <ol className={styles.progress}>
        {steps.map((step, i) => (
          <li
            key={step}
            className={i < current ? styles.done : i === current ? styles.current : undefined}
            aria-current={i === current ? 'step' : undefined}
          >
            <span className={styles.stepMark} aria-hidden="true">
              {i < current ? '✓' : i + 1}
            </span>
            {step}
            {i < current && <span className="visually-hidden"> (done)</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
