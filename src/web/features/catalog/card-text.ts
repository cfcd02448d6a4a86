import { shopRules } from '../../../contracts/shop-rules';

/** Spec 2: a card's description is cut at 70 characters plus an ellipsis. */
export function cutDescription(text: string, limit: number = shopRules.descriptionCut): string {
  return text.length > limit ? `${text.slice(0, limit).trimEnd()}...` : text;
}

/** Spec 2: ratings show to 1 decimal. */
export function formatRating(rating: number): string {
  return rating.toFixed(1);
}
