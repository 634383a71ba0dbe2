/** Thrown by a service when the thing asked for does not exist; answered as a 404. */
export class NotFoundError extends Error {}
