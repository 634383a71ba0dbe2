import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import styles from './message-modal.module.css';

/** The shared message modal (docs/rules.md#pages-and-routes): success notices orange, errors red. */

export interface Message {
  type: 'success' | 'error';
  title: string;
  text: string;
}

const MessageContext = createContext<(message: Message) => void>(() => undefined);

export function useShowMessage(): (message: Message) => void {
  return useContext(MessageContext);
}

export function MessageModalProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<Message | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const show = useCallback((next: Message) => setMessage(next), []);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (message && !element.open) element.showModal();
    if (!message && element.open) element.close();
  }, [message]);

  const value = useMemo(() => show, [show]);
  return (
    <MessageContext.Provider value={value}>
      {children}
      <dialog
        id="messagemodal"
        ref={dialog}
        className={`${styles.modal} ${message?.type === 'error' ? styles.error : styles.success}`}
        aria-labelledby="messagemodal-title"
        aria-describedby="messagemodal-text"
        onClose={() => setMessage(null)}
      >
        {message && (
          <div className={styles.body}>
            <div className={styles.type}>
              <span className={styles.icon} aria-hidden="true">
                {message.type === 'error' ? '!' : '✓'}
              </span>
              <span>{message.type === 'error' ? 'Error' : 'Success'}</span>
            </div>
            <h2 id="messagemodal-title" className={styles.title}>
              {message.title}
            </h2>
            <p id="messagemodal-text">{message.text}</p>
            <button type="button" className="button" onClick={() => setMessage(null)}>
              Close
            </button>
          </div>
        )}
      </dialog>
    </MessageContext.Provider>
  );
}
