import { shopRules } from '../../contracts/shop-rules';

/** Spec 2: the title is 'Premium Mangoes Delivered Fresh', with the page or product name added. */
export function pageTitle(name?: string): string {
  return name ? `${name} | ${shopRules.pageTitle}` : shopRules.pageTitle;
}
