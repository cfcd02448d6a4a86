/** What an offer says of its fruit, as one sentence pair: "Grown in India. Treated with ionising radiation." ('' when it says nothing). */
export function originSentence(origin: string | null | undefined, treatment: string | null | undefined): string {
  const said = [origin, treatment].filter(Boolean);
  return said.length ? `${said.join('. ')}.` : '';
}
