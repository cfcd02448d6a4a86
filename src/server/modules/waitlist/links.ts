/** Where a waitlist entry's mailed links point: its manage page, and the one-click unsubscribe. */
export function manageLinkPath(token: string): string {
  return `/api/waitlist/manage?token=${encodeURIComponent(token)}`;
}

export function unsubscribeLinkPath(token: string): string {
  return `/api/waitlist/unsubscribe?token=${encodeURIComponent(token)}`;
}
