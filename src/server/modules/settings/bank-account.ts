import type { StoredSettings } from '../../../contracts/settings';

/** Bank transfer is offered only once the shop has an account number to pay into. */
export function hasBankAccount(settings: Pick<StoredSettings, 'bankTransfer'>): boolean {
  return settings.bankTransfer.accountNumber.trim() !== '';
}
