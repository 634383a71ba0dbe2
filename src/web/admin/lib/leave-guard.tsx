import { createContext, useContext, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useBlocker } from 'react-router';

/**
 * Asks before staff leave a form with unsaved changes: a link or the back button within the back
 * office shows a question at the top of the page (stay, or leave and lose them); closing or
 * reloading the tab gets the browser's own. A half-written product is not thrown away by one click
 * elsewhere.
 *
 * One guard for the whole back office (a router allows one blocker at a time, and a page such as
 * an order's has several forms): each form says whether it is dirty with useLeaveGuard.
 */
type Guard = { dirty: (form: string, dirty: boolean) => void };
const GuardContext = createContext<Guard | null>(null);

export function LeaveGuard({ children }: { children: ReactNode }) {
  const dirtyForms = useRef(new Set<string>());
  const [anyDirty, setAnyDirty] = useState(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyForms.current.size > 0 && currentLocation.pathname !== nextLocation.pathname,
  );
  const guard = useMemo<Guard>(
    () => ({
      dirty(form, dirty) {
        if (dirty) dirtyForms.current.add(form);
        else dirtyForms.current.delete(form);
        setAnyDirty(dirtyForms.current.size > 0);
      },
    }),
    [],
  );

  useEffect(() => {
    if (!anyDirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [anyDirty]);

  return (
    <GuardContext.Provider value={guard}>
      {blocker.state === 'blocked' && (
        <div
          role="alertdialog"
          aria-labelledby="leave-guard-title"
          aria-describedby="leave-guard-text"
          className="adm-confirm adm-leave-guard"
        >
          <p id="leave-guard-title">
            <strong>You have unsaved changes</strong>
          </p>
          <p id="leave-guard-text">Leave this page and lose them, or stay and save them first?</p>
          <div className="adm-row">
            {/* Staying is the safe answer, so it has the focus. */}
            <button type="button" className="button adm-small" autoFocus onClick={() => blocker.reset()}>
              Stay on this page
            </button>
            <button type="button" className="button button-secondary adm-small" onClick={() => blocker.proceed()}>
              Leave without saving
            </button>
          </div>
        </div>
      )}
      {children}
    </GuardContext.Provider>
  );
}

/**
 * Tells the back office's guard whether this form has unsaved changes. `release()` lets a move made
 * at once go without asking: a form that saved, then moves to what it saved (a new voucher's page),
 * is no longer dirty, though React has not drawn that yet. Outside the guard (a form drawn alone)
 * it does nothing.
 */
export function useLeaveGuard(dirty: boolean): { release: () => void } {
  const form = useId();
  const guard = useContext(GuardContext);
  // Each drawing says it again: a release before a save that then failed lasts only until then.
  useEffect(() => {
    guard?.dirty(form, dirty);
  });
  useEffect(() => () => guard?.dirty(form, false), [guard, form]);
  return useMemo(() => ({ release: () => guard?.dirty(form, false) }), [guard, form]);
}
