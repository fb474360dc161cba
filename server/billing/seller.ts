/**
 * Who issues the invoices and how customers pay them. Payment is by bank transfer or
 * mobile money, quoting the invoice number; the finance desk records it (`invoices pay`).
 */
export const SELLER = {
  name: 'Mboa',
  address: ['Douala', 'Cameroun'],
  email: 'billing@mboa.cm',
} as const;
