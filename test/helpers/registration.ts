/** A password the registration rules accept (long enough, not a common one). */
export const REGISTRATION_PASSWORD = 'Correct-Horse-Battery-9';

/**
 * The body of POST /api/register for `email`, valid unless overridden. A `password` override is
 * confirmed too; override `confirm` on its own to send a confirmation that differs.
 */
export function registrationBody(email: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const password = overrides.password ?? REGISTRATION_PASSWORD;
  return { titleId: 2, email, firstname: 'Meera', lastname: 'Patel', password, confirm: password, ...overrides };
}
