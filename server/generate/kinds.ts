/** The contract's enumerations as TypeScript types, for the ingest modules. */
import type { LISTING_STATUSES, PROPERTY_TYPES, PURPOSES } from '../../contract/schemas.js';

export type PropertyType = (typeof PROPERTY_TYPES)[number];
export type Purpose = (typeof PURPOSES)[number];
export type ListingStatus = (typeof LISTING_STATUSES)[number];
