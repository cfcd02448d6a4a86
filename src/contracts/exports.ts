import { z } from 'zod';
import { addDays, nzToday } from './dates';
import { calendarDateField } from './text';

/**
 * The columns of Xero's "Import invoices" template for sales invoices, in Xero's order; a star
 * marks what Xero requires. Xero reads the file by these names, so they are written exactly so.
 */
export const xeroInvoiceColumns = [
  '*ContactName',
  'EmailAddress',
  'POAddressLine1',
  'POAddressLine2',
  'POAddressLine3',
  'POAddressLine4',
  'POCity',
  'PORegion',
  'POPostalCode',
  'POCountry',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  'InventoryItemCode',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  'Discount',
  '*AccountCode',
  '*TaxType',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
  'Currency',
  'BrandingTheme',
] as const;

/** Xero's names for the two tax rates the export uses (a New Zealand organisation's defaults). */
export const xeroTaxTypes = { gst: '15% GST on Income', none: 'No GST' } as const;

/** The sales account a new shop exports to: 200, "Sales", in Xero's default chart of accounts. */
export const defaultXeroSalesAccount = '200';

/** A Xero account code: up to 10 letters or digits. */
export const xeroAccountCodeField = z
  .string({ error: 'Account code must be text' })
  .trim()
  .regex(/^[A-Za-z0-9]{1,10}$/, 'An account code is 1 to 10 letters or digits, as in your Xero chart of accounts');

/** The longest range one export covers. */
export const maxExportDays = 366 * 2;

/**
 * A range of New Zealand days for an export (both days included). A missing end is today; a
 * missing start is the first of the end's month.
 */
export const exportRangeSchema = z
  .strictObject({ from: calendarDateField('From').optional(), to: calendarDateField('To').optional() })
  .transform((query) => {
    const to = query.to ?? nzToday();
    return { from: query.from ?? `${to.slice(0, 8)}01`, to };
  })
  .superRefine((range, context) => {
    if (range.from > range.to) context.addIssue({ code: 'custom', path: ['to'], message: 'To must be on or after From' });
    else if (addDays(range.from, maxExportDays) <= range.to) context.addIssue({ code: 'custom', path: ['from'], message: 'An export covers at most two years: choose a later From date' });
  });
export type ExportRange = z.output<typeof exportRangeSchema>;
